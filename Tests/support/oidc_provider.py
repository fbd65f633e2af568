"""Runs PyPI's oidc-provider-mock with the given arguments until this script's standard input closes.

The Swift tests share one provider for the whole run and hold this script's standard input open; when the test
process ends, however it ends, the input closes and the provider stops with it.
"""

import subprocess
import sys

provider = subprocess.Popen([sys.executable, "-m", "oidc_provider_mock", *sys.argv[1:]])
sys.stdin.read()
provider.terminate()
provider.wait()
