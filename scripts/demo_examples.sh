# The example invocations the demo runs, one service block each (sourced by demo.sh).
