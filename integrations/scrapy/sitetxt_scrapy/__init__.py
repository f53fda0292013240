"""sitetxt_scrapy: Scrapy meets sitetxt serve.

- ``ROBOTSTXT_PARSER = "sitetxt_scrapy.RobotParser"`` decides robots.txt as
  sitetxt's profile in SITETXT_PROFILE does (rfc9309 by default);
- ``DOWNLOADER_MIDDLEWARES = {"sitetxt_scrapy.PaceMiddleware": 543}`` asks
  serve for every request's slot (``/v1/acquire``), drops what robots.txt
  disallows, waits without blocking the reactor, and reports each response
  (``/v1/report``), so that a fleet of Scrapy processes behind one serve and
  Redis gives each site one pace.

SITETXT_URL names the serve; README.md lists every setting.
"""

from .pace import PaceMiddleware
from .robots import RobotParser

__all__ = ["PaceMiddleware", "RobotParser"]
__version__ = "0.1.0"
