#!/bin/sh
# The scheduler models' speed (bench/models-bench.c): simulated seconds per
# wall second and policy calls per second, per policy.
set -u
"${BUILD:-build}/bench/models-bench"
