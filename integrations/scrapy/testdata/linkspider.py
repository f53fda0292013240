"""The spider of the fleet test (fleet_test.go): from its start URL it
follows every link on the site, and when it closes writes its stats as JSON
to the file named by its argument out."""

import json

import scrapy


class LinkSpider(scrapy.Spider):
    name = "links"

    def __init__(self, start="", out="", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [start]
        self.out = out

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)

    def closed(self, reason):
        stats = dict(self.crawler.stats.get_stats())
        stats["finish_reason"] = reason
        with open(self.out, "w") as f:
            json.dump(stats, f, default=str, indent=1, sort_keys=True)
