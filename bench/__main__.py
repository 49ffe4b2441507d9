import sys

from .scales import main

sys.exit(main())
