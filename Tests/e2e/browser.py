"""Headless Chromium for the tests where a user meets Latchkey's pages: a fixture that opens browsers, each in a fresh
profile, and one that saves numbered screenshots under `.ci/artifacts/<module>/<test>/` (not committed). Chromium and
chromedriver come from Debian (`scripts/bootstrap --test`); Selenium Manager is kept offline and never downloads
anything. Registered as a plugin by conftest.py.
"""

import os
from pathlib import Path

import pytest

os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not reach the network.

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as visible  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from harness import REPO  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = REPO / ".ci" / "artifacts"
WAIT = 15  # seconds any one page state may take to appear


@pytest.fixture
def open_browser(tmp_path):
    """Starts headless Chromium, each in its own fresh profile; every one quits when the test ends."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.fail("Chromium is not installed: run scripts/bootstrap --test (Debian's chromium and chromium-driver)")
    drivers = []

    def start(profile):
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--no-first-run", "--window-size=1024,900",
                         f"--user-data-dir={tmp_path / ('profile-' + profile)}"):
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service(executable_path=str(CHROMEDRIVER)), options=options)
        driver.set_page_load_timeout(WAIT * 2)
        drivers.append(driver)
        return driver

    yield start
    for driver in drivers:
        driver.quit()


@pytest.fixture
def screenshot(request):
    """Saves numbered screenshots under .ci/artifacts/<module without test_, dashed>/<test>/."""
    module = request.node.module.__name__.removeprefix("test_").replace("_", "-")
    directory = ARTIFACTS / module / request.node.name
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.png"):
        old.unlink()
    counter = iter(range(1, 100))

    def save(driver, step):
        driver.save_screenshot(str(directory / f"{next(counter):02d}-{step}.png"))

    return save


def wait_for(driver, element_id):
    return WebDriverWait(driver, WAIT).until(visible.visibility_of_element_located((By.ID, element_id)))
