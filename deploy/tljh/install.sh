#!/bin/bash
# The Littlest JupyterHub (https://tljh.jupyter.org) on one Ubuntu machine, set up for a
# class using tfgraph_edu.  Run as root on a fresh server (Ubuntu 22.04 or later):
#
#   sudo bash deploy/tljh/install.sh teacher
#
# See docs/teaching.md for what each step does and for sizing the machine.
set -euo pipefail

ADMIN="${1:?usage: install.sh ADMIN_USER_NAME}"
REPO="${TFGRAPH_REPO:-https://github.com/tfgraph-edu/tfgraph_edu}"
BRANCH="${TFGRAPH_BRANCH:-main}"
RAW="${TFGRAPH_RAW:-https://raw.githubusercontent.com/tfgraph-edu/tfgraph_edu/$BRANCH}"

# 1. Graphviz for the graph pictures (tfgraph_edu calls `dot`).
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  python3 python3-dev git curl graphviz

# 2. TLJH itself; the learners' environment gets the pinned packages of binder/.
curl -L https://tljh.jupyter.org/bootstrap.py | python3 - \
  --admin "$ADMIN" \
  --user-requirements-txt-url "$RAW/binder/requirements.txt"

# 3. tfgraph_edu and nbgitpuller in the learners' environment (/opt/tljh/user).
/opt/tljh/user/bin/pip install --quiet "git+$REPO@$BRANCH" nbgitpuller

# 4. Limits per learner, measured by benchmarks/classroom.py (docs/teaching.md).
tljh-config set limits.memory 1G
tljh-config set limits.cpu 1

# 5. Culling: whole servers after an hour without use (the hub's idle culler) ...
tljh-config set services.cull.enabled true
tljh-config set services.cull.timeout 3600
tljh-config set services.cull.every 300
# ... and kernels left idle for 20 minutes (by each learner's own Jupyter server).
mkdir -p /opt/tljh/user/etc/jupyter/jupyter_server_config.d
cat > /opt/tljh/user/etc/jupyter/jupyter_server_config.d/tfgraph-culling.json <<'JSON'
{
  "MappingKernelManager": {
    "cull_idle_timeout": 1200,
    "cull_interval": 120,
    "cull_connected": true,
    "cull_busy": false
  }
}
JSON

# 6. JupyterLab by default, then apply everything.
tljh-config set user_environment.default_app jupyterlab
tljh-config reload

echo "Done. Log in as '$ADMIN' at http://$(hostname -I | awk '{print $1}')/ and set a password."
echo "Give learners the nbgitpuller link from docs/teaching.md."
