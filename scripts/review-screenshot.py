#!/usr/bin/python3
# scripts/review-screenshot.py -- a PNG of a page of `athread review`, taken
# in headless Chromium (Selenium), as a reader first sees it: the window's
# size, the top of the page, or the part that --at names, with the
# counterexample's stepper moved to --step. `make demo` takes one per page;
# docs/review.png is the page of README's command, taken with
#   --step 3 --at thread-Dispatcher
# Run with Debian's /usr/bin/python3 (python3-selenium; chromium and
# chromium-driver installed).
# Usage: scripts/review-screenshot.py PAGE.html OUT.png [--size 1200x900]
#        [--step K|last] [--at ELEMENT-ID]
import argparse
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def arguments():
    p = argparse.ArgumentParser(description="a PNG of an athread review page")
    p.add_argument("page", help="the HTML page (athread review -o PAGE.html)")
    p.add_argument("png", help="where the screenshot goes")
    p.add_argument("--size", default="1200x900", help="the window, WIDTHxHEIGHT (default 1200x900)")
    p.add_argument("--step", help="on an unsafe page, the counterexample's step to show (a number, or last)")
    p.add_argument("--at", help="scroll the element with this id to the top (below the stepper)")
    return p.parse_args()


def browser(size):
    o = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--hide-scrollbars"):
        o.add_argument(a)
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    width, height = (int(x) for x in size.split("x"))
    # the window's size includes what a browser draws around the page: make the page itself that size
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return d


# Moves the stepper the way a reader does: the forward button, step by step.
def step_to(d, step):
    forward = d.find_elements(By.CSS_SELECTOR, "[data-go=forward]")
    if not forward:
        sys.exit("review-screenshot: --step: the page has no counterexample")
    last = int(d.find_element(By.ID, "step").get_attribute("max"))
    for _ in range(last if step == "last" else min(int(step), last)):
        forward[0].click()


def main():
    a = arguments()
    d = browser(a.size)
    try:
        d.get("file://" + os.path.abspath(a.page))
        if a.step:
            step_to(d, a.step)
        if a.at:  # sections keep a margin for the sticky stepper (page.css)
            d.execute_script("document.getElementById(arguments[0]).scrollIntoView()", a.at)
        d.save_screenshot(a.png)
    finally:
        d.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
