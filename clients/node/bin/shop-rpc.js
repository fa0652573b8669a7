#!/usr/bin/env node
// The `shop-rpc` command of the npm package: runs the server binary found by locateServerBinary
// (the installed platform package's, normally) with this process's arguments and standard streams,
// and exits as it does. stdin, stdout and stderr are inherited, not piped, so the protocol's bytes
// never pass through Node.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { locateServerBinary } from '../lib/server-binary.js';

let binary;
try {
  binary = locateServerBinary(process.env, { skip: fileURLToPath(import.meta.url) });
} catch (error) {
  process.stderr.write(`shop-rpc: ${error.message}\n`);
  process.exit(127);
}
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
// A signal sent to the launcher alone (a host stopping the command it started) is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (error) => {
  process.stderr.write(`shop-rpc: cannot run ${binary}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
