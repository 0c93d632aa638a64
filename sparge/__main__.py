import sys

from sparge.cli import main

sys.exit(main())
