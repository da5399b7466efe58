// CPU seconds of this process and of the child processes it started and has waited for (the
// services a test file runs as child processes, openssl, ssh-keygen, ...): what a test file
// costs the machine, beside its wall time, so a run shows which files wait rather than work
// (tools/test/slowest.js). Linux: /proc/self/stat (utime, stime, cutime, cstime); elsewhere the
// process's own time only. PostgreSQL's and Redis's work for the file is in neither.
'use strict';

const fs = require('node:fs');

/** Clock ticks per second of /proc's times: 100 on every Linux this suite runs on. */
const TICKS = 100;

function cpuSeconds() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces) are space-separated; utime is the
    // 14th field of the line, so the 12th after the closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    if (Number.isFinite(ticks)) return ticks / TICKS;
  } catch {
    // not Linux
  }
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

module.exports = { cpuSeconds };
