"""RobotParser: Scrapy's ROBOTSTXT_PARSER backed by sitetxt.

Scrapy's RobotsTxtMiddleware fetches each site's robots.txt itself and hands
the body (only the body: not its URL, not its status) to
``RobotParser.from_crawler(crawler, body)``; it calls ``allowed(url,
user_agent)`` for every request on the reactor thread. This parser asks
serve's ``POST /v1/test`` to decide the URL under that body as the profile
in SITETXT_PROFILE reads it (rfc9309 by default; google, draft, norobots).
"""

import logging

from scrapy.robotstxt import RobotParser as _ScrapyRobotParser

from .client import DEFAULT_PROFILE, Serve, ServeError, product_token, robots_text

logger = logging.getLogger(__name__)


class RobotParser(_ScrapyRobotParser):
    """A robots.txt body Scrapy fetched, decided by sitetxt serve.

    ``allowed`` is a blocking call to serve (a millisecond or two on
    loopback): keep a serve beside each crawler. When serve cannot answer,
    the URL is disallowed (RFC 9309's reading of a robots.txt that cannot be
    read) and the error logged; the stat ``sitetxt/robots_errors`` counts
    such answers.
    """

    def __init__(self, crawler, robotstxt_body):
        settings = crawler.settings
        self.crawler = crawler
        self.serve = Serve.from_settings(settings)
        self.profile = settings.get("SITETXT_PROFILE") or DEFAULT_PROFILE
        self.agent = product_token(settings.get("SITETXT_AGENT") or "")
        self.text = robots_text(robotstxt_body)

    @classmethod
    def from_crawler(cls, crawler, robotstxt_body):
        if crawler is None:
            raise ValueError("sitetxt_scrapy.RobotParser needs the crawler (its settings name the serve)")
        return cls(crawler, robotstxt_body)

    def allowed(self, url, user_agent):
        """Whether the crawler whose User-Agent (or ROBOTSTXT_USER_AGENT) is
        user_agent, str or bytes, may fetch url. The product token is what
        is compared (the google profile compares the agent whole):
        SITETXT_AGENT when set, else the name user_agent starts with."""
        if isinstance(url, bytes):
            url = url.decode("utf-8")
        agent = self.agent or product_token(user_agent)
        try:
            verdict = self.serve.decide(self.text, agent, url, self.profile)
        except ServeError as e:
            logger.error("sitetxt: cannot decide %s, so it is disallowed: %s", url, e)
            self.crawler.stats.inc_value("sitetxt/robots_errors")
            return False
        return bool(verdict.get("allowed"))

    def crawl_delay(self, user_agent):
        """The Crawl-delay, in seconds, of the group that applies to the
        crawler, or None when it has none (Scrapy 2.18's RobotParser
        method; PaceMiddleware paces by it, and by Request-rate, through
        serve)."""
        agent = self.agent or product_token(user_agent)
        try:
            verdict = self.serve.decide(self.text, agent, "/", self.profile)
        except ServeError as e:
            logger.error("sitetxt: cannot read the Crawl-delay: %s", e)
            self.crawler.stats.inc_value("sitetxt/robots_errors")
            return None
        return verdict.get("crawl_delay")
