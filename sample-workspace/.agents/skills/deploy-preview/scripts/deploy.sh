#!/bin/sh
# Deploys a branch to a preview environment.
set -eu
echo "deploying $1 to ${2:-eu-west-1}"
