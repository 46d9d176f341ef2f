// How every browser test starts Chromium: Debian's package, never a downloaded browser, with
// the flags that keep it from reaching for the network this machine does not have.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
  args: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};
