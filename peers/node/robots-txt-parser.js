'use strict';
// reptest peer for the npm robots-txt-parser library (version pinned in
// package-lock.json), speaking reptest/1 through protocol.js.
//
// The body is decoded as UTF-8 (invalid bytes become U+FFFD) and given to
// parseRobots under the page's origin; the agent is set with setUserAgent
// and the full URL asked with canCrawlSync, as the library's documentation
// shows. The library's default options are kept (allowOnNeutral: true).
// Parse requests only: parseRobots takes no HTTP status.
//
// parseRobots throws on a one-line file that holds no "field: value" pair
// (the empty file among them): its fallback splitter finds no record. A
// crawler gets a rejected promise from useRobotsFor and no rules, so the
// peer answers "reject" for such a file.

const { serve, load, lastBody } = require('./protocol.js');

const { lib: robotsParser, version } = load('robots-txt-parser', 'robots-txt-parser');

const parsed = lastBody((robots, origin) => {
  const robotsTxt = robotsParser();
  try {
    robotsTxt.parseRobots(origin, robots.toString('utf8'));
  } catch (err) {
    return null;
  }
  return robotsTxt;
});

function check(robots, agent, url) {
  const robotsTxt = parsed(robots, new URL(url).origin);
  if (robotsTxt === null) {
    return 'reject';
  }
  robotsTxt.setUserAgent(agent);
  return robotsTxt.canCrawlSync(url) ? 'allow' : 'disallow';
}

serve({ name: 'robots-txt-parser', version, check });
