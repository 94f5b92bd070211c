#!/usr/bin/env python3
"""Writes the audit page's demonstration inputs to a folder: a generated
access log of 30 days (September 2026), two robots.txt versions (v2 from
15 September 12:00) and a range file for Googlebot. The README's
screenshots of the audit page are made from them:

    python3 scripts/audit-demo.py /tmp/demo && cd /tmp/demo
    reptest audit --robots v1.txt --robots v2.txt@2026-09-15T12:00:00Z \
      --log access.log --verified-ranges googlebot.json --html audit.html

In the log: the verified Googlebot (inside the ranges) fetching
robots.txt every 6 hours, a scraper sending Googlebot's User-Agent from
elsewhere that never fetches it, GPTBot keeping to its old copy after v2
disallows it everything, a crawler under * whose robots.txt fetch on day
21 answers 503, and browsers.
"""
import datetime as dt
import json
import os
import random
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)
random.seed(1)
start = dt.datetime(2026, 9, 1, tzinfo=dt.timezone.utc)
span = 30 * 86400
G = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
GPT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
OTHER = "ExampleCrawler/1.0 (+https://crawler.example/bot)"
FF = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
lines = []


def add(t, ip, path, ua, status=200):
    stamp = t.strftime("%d/%b/%Y:%H:%M:%S +0000")
    lines.append((t, f'{ip} - - [{stamp}] "GET {path} HTTP/1.1" {status} 512 "-" "{ua}"'))


def anytime():
    return start + dt.timedelta(seconds=random.randrange(span))


for h in range(0, 30 * 24, 6):
    add(start + dt.timedelta(hours=h, minutes=3), "66.249.66.1", "/robots.txt", G)
for i in range(120000):
    add(anytime(), "66.249.66.1", ("/go/%d" if random.random() < 0.1 else "/page/%d") % i, G)
for i in range(15000):
    add(anytime(), "203.0.113.9", ("/private/%d" if random.random() < 0.5 else "/page/%d") % i, G)
for d in range(30):
    add(start + dt.timedelta(days=d, hours=2), "20.171.207.5", "/robots.txt", GPT)
for i in range(30000):
    add(anytime(), "20.171.207.5", "/page/%d" % i, GPT)
for d in range(30):
    add(start + dt.timedelta(days=d, hours=5), "198.51.100.4", "/robots.txt", OTHER, 503 if d == 20 else 200)
for i in range(20000):
    add(anytime(), "198.51.100.4", ("/private/%d" if random.random() < 0.02 else "/page/%d") % i, OTHER)
for i in range(10000):
    add(anytime(), "192.0.2.%d" % random.randrange(250), "/page/%d" % i, FF)
lines.sort(key=lambda x: x[0])
with open(os.path.join(out, "access.log"), "w") as f:
    f.writelines(line + "\n" for _, line in lines)
with open(os.path.join(out, "v1.txt"), "w") as f:
    f.write("User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n\nUser-agent: GPTBot\nAllow: /\n")
with open(os.path.join(out, "v2.txt"), "w") as f:
    f.write("User-agent: *\nDisallow: /private/\nDisallow: /go/\n\n"
            "User-agent: Googlebot\nDisallow: /private/\nDisallow: /go/\n\nUser-agent: GPTBot\nDisallow: /\n")
with open(os.path.join(out, "googlebot.json"), "w") as f:
    json.dump({"prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv4Prefix": "66.249.66.0/27"}]}, f, indent=1)
