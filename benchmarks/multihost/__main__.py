import sys

from benchmarks.multihost.layout import main

sys.exit(main())
