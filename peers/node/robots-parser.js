'use strict';
// reptest peer for the npm robots-parser library (version pinned in
// package-lock.json), speaking reptest/1 through protocol.js.
//
// robots-parser takes the robots.txt URL and the body as text; the body is
// decoded as UTF-8 (invalid bytes become U+FFFD, as fetch's text() does) and
// the robots.txt URL is derived from the page URL. The library has no
// notion of HTTP status, so this peer takes parse requests only.

const { serve, load, lastBody } = require('./protocol.js');

const { lib: robotsParser, version } = load('robots-parser', 'robots-parser');

const parsed = lastBody((robots, robotsURL) => robotsParser(robotsURL, robots.toString('utf8')));

function check(robots, agent, url) {
  const robotsURL = new URL('/robots.txt', url).href;
  const allowed = parsed(robots, robotsURL).isAllowed(url, agent);
  if (allowed === undefined) {
    throw new Error('isAllowed answered undefined: the URL is not governed by ' + robotsURL);
  }
  return allowed ? 'allow' : 'disallow';
}

serve({ name: 'robots-parser', version, check });
