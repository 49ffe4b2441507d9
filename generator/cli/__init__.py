"""The command line: one thin function per verb (`commands`), and live preview's server
(`liveserve`: MkDocs' live-reload server, whose pages swap in their rebuilt content).
"""
