// Preloaded into the CLI process by the large-upload test (node --require): writes the peak
// resident set size of the whole process (getrusage maxrss, KiB) to PLATFORM_TEST_RSS_FILE.
'use strict';
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  const file = process.env.PLATFORM_TEST_RSS_FILE;
  if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
});
