// Makes sure Debian's Chromium is installed; Playwright never downloads a browser of its own.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);
console.log(`${CHROMIUM} is missing; installing Debian's chromium package…`);
const sudo = process.getuid && process.getuid() !== 0 ? 'sudo ' : '';
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`, { stdio: 'pipe', shell: '/bin/bash', maxBuffer: 64 << 20 });
  console.log('chromium installed.');
} catch (e) {
  console.error(String(e?.stderr ?? e).slice(-4000));
  console.error(`Could not install chromium. Install it yourself (apt-get install -y chromium) and run the tests again.`);
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`chromium installed, but ${CHROMIUM} is still missing.`);
  process.exit(1);
}
