#!/usr/bin/env bash
# Runs the default suite as 8 shards with a Slurm array job:
#   sbatch configs/deploy/slurm-array.sh
# then, when all tasks are done:
#   gridsim report datasets/default-seed20261129-shard*of8
#SBATCH --job-name=gridsim-nightly
#SBATCH --array=0-7
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --time=01:00:00
#SBATCH --requeue
set -euo pipefail
SHARDS=8
DIR="datasets/default-seed20261129-shard${SLURM_ARRAY_TASK_ID}of${SHARDS}"
# A requeued task resumes its own shard instead of starting over.
if [ -f "$DIR/manifest.json" ]; then
  exec gridsim run --resume "$DIR" --threads "${SLURM_CPUS_PER_TASK}"
else
  exec gridsim run configs/suites/default.toml --shard "${SLURM_ARRAY_TASK_ID}/${SHARDS}" \
    --threads "${SLURM_CPUS_PER_TASK}" --out datasets
fi
