'use strict';
// reptest peer for the npm robots-txt-guard library with robots-txt-parse,
// its parser (versions pinned in package-lock.json), speaking reptest/1
// through protocol.js.
//
// robots-txt-parse reads the body from a stream (decoded as UTF-8, invalid
// bytes becoming U+FFFD) and resolves to groups of agents and rules;
// robots-txt-guard orders the rules of each group by specificity and takes
// the first that matches. Its isAllowed(userAgent, path) gets the product
// token and the URL's path and query as a WHATWG URL gives them (a Node
// crawler holds URL objects). Parse requests only: the libraries have no
// notion of HTTP status.

const { Readable } = require('node:stream');
const { serve, load, lastBody } = require('./protocol.js');

const { lib: guard, version } = load('robots-txt-guard', 'robots-txt-guard');
const { lib: parse, version: parseVersion } = load('robots-txt-guard', 'robots-txt-parse');

const parsed = lastBody(async (robots) => guard(await parse(Readable.from([robots]))));

async function check(robots, agent, url) {
  const u = new URL(url);
  const g = await parsed(robots, null);
  return g.isAllowed(agent, u.pathname + u.search) ? 'allow' : 'disallow';
}

// The version names both libraries, guard's first: "1.0.2/2.0.1".
serve({ name: 'robots-txt-guard', version: `${version}/${parseVersion}`, check });
