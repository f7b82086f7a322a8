"""ASL114: a browser driven through a synchronous driver (Selenium, Playwright's sync API) on the loop."""

from __future__ import annotations

from asynclint.model import Severity
from asynclint.rules.base import BlockingCallRule


class SyncBrowserCall(BlockingCallRule):
    """A browser is driven through a synchronous driver (Selenium WebDriver, Playwright's sync API) on the loop.

    **Why is this bad?**
    Every WebDriver and WebElement method is an HTTP round trip to the driver process and, through
    it, to the browser: `driver.get(url)` waits for the page to load, `WebDriverWait(...).until`
    polls and sleeps, `element.click()` waits for the browser; reading `driver.title`,
    `driver.page_source` or `element.text` runs a getter that asks the driver too (reported at
    the read, "reading the property ..."). A web-agent environment makes
    dozens of such calls per turn, and every other rollout waits for each of them. Playwright's
    sync API cannot even start inside a running event loop (it raises), and its objects are bound
    to the thread that created them.

    **Example**
    ```python
    from selenium import webdriver

    DRIVER = webdriver.Chrome()

    async def open_page(url: str) -> None:
        DRIVER.get(url)
    ```

    **Use instead**
    ```python
    from playwright.async_api import async_playwright

    async def open_page(url: str) -> str:
        async with async_playwright() as p:
            browser = await p.chromium.launch()
            page = await browser.new_page()
            await page.goto(url)
            return await page.content()
    ```

    **Fix**
    Drive the browser with `playwright.async_api` and await every call (Selenium has no async
    API). Where Selenium must stay, run the browser session's calls in a worker thread
    (`await asyncio.to_thread(driver.get, url)`); `asynclint fix` does that for a Selenium call
    (safe: the driver talks HTTP and may be called from any one thread at a time), and reads a
    property in the thread (`await asyncio.to_thread(lambda: driver.title)`). Playwright
    sync calls get no automatic fix: moving single calls to other threads breaks them.
    """

    code = "ASL114"
    name = "sync-browser-call"
    category = "browser"
    default_severity = Severity.CRITICAL
    message = "`{callee}` drives a browser and waits for it{on_loop} {where}"
