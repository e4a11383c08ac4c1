"""Headless Chromium for the tests: the distribution's browser and driver, driven by Selenium.

Selenium talks to the system's chromedriver (Debian's `chromium-driver`), so
nothing is downloaded; `why_no_browser` says what is missing, for a skip."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def _browser() -> str | None:
    for path in ("/usr/lib/chromium/chromium", shutil.which("chromium"), shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if path and Path(path).exists():
            return path
    return None


def why_no_browser() -> str | None:
    """None when a browser, its driver and Selenium are all here; else what is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    if _browser() is None:
        return "no Chromium installed (apt-get install chromium chromium-driver)"
    if shutil.which("chromedriver") is None:
        return "no chromedriver installed (apt-get install chromium-driver)"
    return None


@contextlib.contextmanager
def chromium(width: int = 1000, height: int = 900):
    """A headless Chromium (a Selenium WebDriver) with a fresh profile, quit on every exit path."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _browser() or ""
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    with tempfile.TemporaryDirectory(prefix="bddlc-chromium-") as profile:
        options.add_argument(f"--user-data-dir={profile}")
        driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def screenshot(page: Path, png: Path, width: int = 1000, height: int = 900) -> None:
    """Save what Chromium shows of `page` (an SVG or HTML file) as a PNG."""
    with chromium(width, height) as driver:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        driver.get(Path(page).resolve().as_uri())
        driver.save_screenshot(str(png))
