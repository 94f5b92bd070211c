"""A Scrapy spider for reptest crawl: it starts at the URL given as
-a start=URL and follows every link of the pages it fetches, with
Scrapy's robots.txt middleware on (ROBOTSTXT_OBEY, Protego by default).

    scrapy runspider spider.py -a start=URL -s USER_AGENT=UA -s ROBOTSTXT_OBEY=True
"""
import scrapy


class FollowAll(scrapy.Spider):
    name = "reptest"

    def __init__(self, start=None, **kwargs):
        super().__init__(**kwargs)
        if not start:
            raise ValueError("give the start URL with -a start=URL")
        self.start_urls = [start]

    def parse(self, response):
        if not hasattr(response, "css"):
            return
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, callback=self.parse)
