'use strict';
// The reptest/1 protocol loop shared by reptest's Node peer programs: JSON
// lines on standard input, one JSON answer line per request on standard
// output, in order (the protocol section of the reptest README).
//
// A peer program calls serve() with its name, its library's version and a
// check function. check(robots, agent, url) gets the body as a Buffer, the
// product token and the absolute URL, and returns "allow", "disallow" or
// "reject", or a Promise of one (robots-txt-parse reads a stream). Requests
// are answered one at a time, so an asynchronous library still answers in
// order.

const readline = require('node:readline');

// runtime names the interpreter for the hello, so results say which Node.js
// ran the library.
const runtime = `Node.js ${process.version}`;

// load requires a library and its package.json version, or exits with
// status 3 and a message naming the npm package to install.
function load(peer, pkg) {
  try {
    return { lib: require(pkg), version: require(`${pkg}/package.json`).version };
  } catch (err) {
    process.stderr.write(`${peer} peer: ${err.message} (npm package ${pkg}: run npm ci in peers/node)\n`);
    process.exit(3);
  }
  return undefined;
}

// bodyCache returns the body of a request's robots_b64 as a Buffer. The
// differential engine asks many questions of one body in a row, so the
// last body is kept by its base64 text: an unchanged body is not decoded
// again and stays the same Buffer, which lastBody recognises at once.
function bodyCache() {
  let last = { b64: null, robots: null };
  return (b64) => {
    if (last.b64 !== b64) {
      last = { b64, robots: Buffer.from(b64, 'base64') };
    }
    return last.robots;
  };
}

async function answer(msg, check, body) {
  const id = msg.id === undefined ? '' : msg.id;
  try {
    if (msg.robots_url) {
      throw new Error('this peer does not fetch (no capability fetch)');
    }
    if (msg.status) {
      throw new Error('this peer takes no status (no capability status)');
    }
    const robots = body(msg.robots_b64 || '');
    if (Array.isArray(msg.questions)) {
      // A batch: one body, many questions, answered in order.
      const answers = [];
      for (const q of msg.questions) {
        try {
          answers.push({ verdict: await check(robots, q.agent, q.url) });
        } catch (err) {
          answers.push({ error: errorText(err) });
        }
      }
      return { id, answers };
    }
    return { id, verdict: await check(robots, msg.agent, msg.url) };
  } catch (err) {
    return { id, error: errorText(err) };
  }
}

function errorText(err) {
  const name = err && err.name ? err.name : 'Error';
  const message = err && err.message !== undefined ? err.message : String(err);
  return `${name}: ${message}`;
}

async function reply(line, hello, check, body) {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch (err) {
    return { error: `not a request: ${err.message}` };
  }
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    return { error: 'not a request: not a JSON object' };
  }
  if ('hello' in msg) {
    return hello;
  }
  return answer(msg, check, body);
}

// serve answers requests until standard input ends.
function serve({ name, version, check }) {
  const hello = { name, version, runtime, capabilities: ['parse', 'batch'] };
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  const body = bodyCache();
  let queue = Promise.resolve();
  lines.on('line', (line) => {
    queue = queue.then(async () => {
      const r = await reply(line, hello, check, body);
      process.stdout.write(JSON.stringify(r) + '\n');
    });
  });
}

// lastBody keeps the last parsed file: the differential engine asks many
// questions of one body in a row. parse(robots) makes the parsed form; key
// is compared beside the body when the parse depends on more than it.
function lastBody(parse) {
  let last = { body: null, key: null, parsed: null };
  return (robots, key) => {
    if (last.body === null || last.key !== key || (last.body !== robots && !last.body.equals(robots))) {
      last = { body: robots, key, parsed: parse(robots, key) };
    }
    return last.parsed;
  };
}

module.exports = { serve, load, lastBody };
