// A simplecrawler crawler for reptest crawl: it starts at a URL and
// follows every link of the pages it fetches, with simplecrawler's
// robots.txt support on (respectRobotsTxt, its default, made explicit).
//
//   node crawl.js [-ua HEADER] [-depth N] [-max N] START-URL
//
// https certificates are checked against Node's roots plus the PEM file
// in $NODE_EXTRA_CA_CERTS, which reptest crawl sets.
"use strict";
const Crawler = require("simplecrawler");

const usage = "usage: node crawl.js [-ua HEADER] [-depth N] [-max N] START-URL";
const args = process.argv.slice(2);
let ua = null, depth = 5, max = 200;
while (args.length > 1 && args[0].startsWith("-")) {
    const flag = args.shift(), value = args.shift();
    if (flag === "-ua") ua = value;
    else if (flag === "-depth") depth = Number(value);
    else if (flag === "-max") max = Number(value);
    else { console.error(usage); process.exit(2); }
}
if (args.length !== 1) { console.error(usage); process.exit(2); }

const crawler = new Crawler(args[0]);
crawler.respectRobotsTxt = true;
if (ua) crawler.userAgent = ua;
crawler.maxDepth = depth;
crawler.timeout = 5000;
crawler.interval = 10;
crawler.maxConcurrency = 2;
// The site links only its own origins (other hosts and ports of the
// case); simplecrawler would keep to the start host.
crawler.filterByDomain = false;
crawler.downloadUnsupported = false;
let fetched = 0;
crawler.on("fetchstart", () => { if (++fetched >= max) crawler.stop(); });
crawler.on("fetcherror", (item, resp) => console.error(`simplecrawler: ${item.url}: ${resp.statusCode}`));
crawler.on("fetchclienterror", (item, err) => console.error(`simplecrawler: ${item.url}: ${err && err.message}`));
crawler.on("robotstxterror", (err) => console.error(`simplecrawler: robots.txt: ${err.message}`));
crawler.on("complete", () => process.exit(0));
crawler.start();
