import sys

from vlog.cli import main

sys.exit(main())
