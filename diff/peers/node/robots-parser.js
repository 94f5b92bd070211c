'use strict';
// reptest peer for the npm robots-parser library (version pinned in
// package-lock.json), speaking the reptest/1 protocol: JSON lines on
// standard input and output (CASES.md section 3 in the reptest repository).
//
// robots-parser takes the robots.txt URL and the body as text; the body is
// decoded as UTF-8 (invalid bytes become U+FFFD, as fetch's text() does) and
// the robots.txt URL is derived from the page URL. The library has no
// notion of HTTP status, so this peer takes parse requests only.

const readline = require('node:readline');

let robotsParser;
let libVersion;
try {
  robotsParser = require('robots-parser');
  libVersion = require('robots-parser/package.json').version;
} catch (err) {
  process.stderr.write(`robots-parser peer: ${err.message} (run npm ci in diff/peers/node)\n`);
  process.exit(3);
}

// The differential engine asks many questions of one body in a row, so the
// last parsed file is kept, per robots.txt URL.
let last = { body: null, robotsURL: null, rules: null };

function check(robots, agent, url) {
  const robotsURL = new URL('/robots.txt', url).href;
  if (last.body === null || last.robotsURL !== robotsURL || !last.body.equals(robots)) {
    last = { body: robots, robotsURL, rules: robotsParser(robotsURL, robots.toString('utf8')) };
  }
  const rules = last.rules;
  const allowed = rules.isAllowed(url, agent);
  if (allowed === undefined) {
    throw new Error('isAllowed answered undefined: the URL is not governed by ' + robotsURL);
  }
  return allowed ? 'allow' : 'disallow';
}

function answer(msg) {
  const id = msg.id === undefined ? '' : msg.id;
  try {
    if (msg.robots_url) {
      throw new Error('this peer does not fetch (no capability fetch)');
    }
    if (msg.status) {
      throw new Error('this peer takes no status (no capability status)');
    }
    const robots = Buffer.from(msg.robots_b64 || '', 'base64');
    return { id, verdict: check(robots, msg.agent, msg.url) };
  } catch (err) {
    return { id, error: `${err.name}: ${err.message}` };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
lines.on('line', (line) => {
  let reply;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    msg = undefined;
    reply = { error: `not a request: ${err.message}` };
  }
  if (msg !== undefined) {
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
      reply = { error: 'not a request: not a JSON object' };
    } else if ('hello' in msg) {
      reply = { name: 'robots-parser', version: libVersion, capabilities: ['parse'] };
    } else {
      reply = answer(msg);
    }
  }
  process.stdout.write(JSON.stringify(reply) + '\n');
});
