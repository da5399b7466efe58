// Preloaded into the CLI process by the large-upload test (node --require): writes the peak
// resident set size of this process (KiB) to PLATFORM_TEST_RSS_FILE at exit.
//
// VmHWM of /proc/self/status, not getrusage's maxRSS: Linux keeps in maxRSS the high-water
// mark of the memory the process had before exec — for a child spawned by a Jest worker, the
// forked copy of that worker (180 MiB late in a full run), which says nothing about the CLI.
// VmHWM belongs to the address space exec created. maxRSS only where /proc is missing.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');

function peakKiB() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]);
  } catch {
    // not Linux: fall through
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const file = process.env.PLATFORM_TEST_RSS_FILE;
  if (file) writeFileSync(file, String(peakKiB()));
});
