"""The spider of the fleet test (scrapy_test.go): from its start URL it
follows every link on the site; it records each paced request as it went
on from PaceMiddleware (its URL, its slot and the time it went on, from
the slot in Request.meta, for every response downloaded, a 429 too), and
when it closes writes its stats and those sends as JSON to the file named
by its argument out."""

import json

import scrapy
from scrapy import signals

from sitetxt_scrapy.pace import SLOT_META


class LinkSpider(scrapy.Spider):
    name = "links"

    def __init__(self, start="", out="", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [start]
        self.out = out
        self.sends = []

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.downloaded, signal=signals.response_downloaded)
        return spider

    def downloaded(self, response, request, spider=None):
        slot = request.meta.get(SLOT_META)
        if slot is not None:
            self.sends.append({"url": request.url, "slot": slot["slot"], "sent": slot["sent"]})

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, self.parse)

    def closed(self, reason):
        stats = dict(self.crawler.stats.get_stats())
        stats["finish_reason"] = reason
        with open(self.out, "w") as f:
            json.dump({"stats": stats, "sends": self.sends}, f, default=str, indent=1, sort_keys=True)
