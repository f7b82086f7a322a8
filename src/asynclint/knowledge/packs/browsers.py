"""Browsers driven through a synchronous driver: Selenium's WebDriver, Playwright's sync API.

Every WebDriver and WebElement method is an HTTP round trip to the driver process (and through
it to the browser): ``driver.get(url)`` waits for the page load, ``WebDriverWait.until`` polls
and sleeps. Selenium has no async API. Playwright's sync API wraps its async one on a greenlet
bound to the thread that started it, and refuses to start in a thread whose event loop runs
(``Error: It looks like you are using Playwright Sync API inside the asyncio loop``): on a hot
path it is a stall or an error, and moving single calls to a worker thread breaks its thread
affinity, so no recipe is named; ``playwright.async_api`` is the fix.

Not every command waits on a page. The driver (chromedriver, geckodriver) runs on this machine
and answers some commands itself or from the browser at once: the session's timeouts
(``set_script_timeout``, ``set_page_load_timeout``, ``implicitly_wait``: ``SET_TIMEOUTS``, which
the driver stores), the window's rectangle and handles. Those are a localhost round trip of
milliseconds (cost ``driver-command``: high per rollout, raised per turn or tool call like any
round trip). ``execute_script`` is graded by its script (cost ``script``): reading or setting
values in the page is such a round trip; a script that clicks, navigates, sends a request or
returns a promise may wait on the page. Loading a page (``get``, ``back``, ``refresh``), finding
elements (an implicit wait polls until they appear), screenshots and CDP commands wait on the
page or the network. A ``webdriver.Remote`` session talks to a grid over the network: every one
of its commands is a network round trip, so the split applies to the local drivers only.

Some properties are round trips too: reading ``driver.title``, ``driver.page_source`` or
``element.text`` runs a getter that calls ``execute`` (``READS`` below, each checked in the
source). Playwright's sync properties are not: every one of the 106 in ``sync_api/_generated.py``
returns what the object already holds (``page.url``, ``page.main_frame``), none waits on the
driver -- except the ``value`` of what ``with page.expect_*() as info`` enters, which waits for
the event.
"""

from __future__ import annotations

from asynclint.knowledge.api import BlockingApi, entry, many, reads

_SELENIUM = "source: pkg selenium 4.52.0"
_PLAYWRIGHT = "source: pkg playwright 1.65.2 playwright/sync_api/_generated.py"
SELENIUM_TWIN = "`playwright.async_api` (Selenium has no async API)"
PLAYWRIGHT_TWIN = "`playwright.async_api` (`async with async_playwright()`, then await every page call)"

#: ``selenium.webdriver.<name>`` -> the module defining its ``WebDriver`` (webdriver/__init__.py).
_DRIVERS = {
    "Chrome": "chrome",
    "Edge": "edge",
    "ChromiumEdge": "edge",
    "Firefox": "firefox",
    "Ie": "ie",
    "Safari": "safari",
    "Remote": "remote",
    "WebKitGTK": "webkitgtk",
    "WPEWebKit": "wpewebkit",
}
#: WebDriver methods that only work locally (remote/webdriver.py): nothing is sent.
_DRIVER_LOCAL = frozenset({"create_web_element", "file_detector_context", "pin_script", "get_pinned_scripts"})
#: Drivers that run on this machine (every one but ``Remote``, whose grid is across the network).
_LOCAL_DRIVERS = tuple(name for name in _DRIVERS if name != "Remote")
#: WebDriver commands a local driver answers without a page load or a network wait
#: (remote/webdriver.py): the session's timeouts (``SET_TIMEOUTS``, stored by the driver) and
#: the window's rectangle (``GET_WINDOW_RECT``).
_DRIVER_QUICK = (
    "set_script_timeout set_page_load_timeout implicitly_wait get_window_size get_window_position get_window_rect"
)
#: Properties whose getter is such a command: ``GET_TIMEOUTS`` and the window handles.
_DRIVER_QUICK_READS = "timeouts current_window_handle window_handles"
_ELEMENT = "selenium.webdriver.remote.webelement.WebElement"
_WAITS = ("selenium.webdriver.support.ui.WebDriverWait", "selenium.webdriver.support.wait.WebDriverWait")
_ACTIONS = ("selenium.webdriver.ActionChains", "selenium.webdriver.common.action_chains.ActionChains")
#: ActionChains methods queue an action and return the chain; ``perform`` sends them all.
_QUEUED = (
    "click click_and_hold context_click double_click drag_and_drop drag_and_drop_by_offset key_down key_up "
    "move_by_offset move_to_element move_to_element_with_offset pause release send_keys send_keys_to_element "
    "scroll_to_element scroll_by_amount scroll_from_origin"
).split()
_SELECTS = ("selenium.webdriver.support.ui.Select", "selenium.webdriver.support.select.Select")
_SWITCH_TO = "selenium.webdriver.remote.switch_to.SwitchTo"
_ALERT = "selenium.webdriver.common.alert.Alert"
#: WebDriver properties whose getter calls ``self.execute`` (remote/webdriver.py). ``name``,
#: ``capabilities``, ``switch_to``, ``mobile`` and the BiDi modules (``script``, ``network``: a
#: websocket opened on first use) do not wait on a command.
_DRIVER_READS = "title current_url page_source orientation"
#: WebElement properties whose getter calls ``self._execute`` (remote/webelement.py;
#: ``screenshot_as_png`` through ``screenshot_as_base64``). ``id``, ``parent`` and
#: ``session_id`` are local.
_ELEMENT_READS = (
    "text tag_name size location rect location_once_scrolled_into_view shadow_root aria_role accessible_name "
    "screenshot_as_base64 screenshot_as_png"
)
_EVENT_INFO = "playwright._impl._sync_base.EventInfo"
#: The context managers entering an ``EventInfo`` (sync_api/_generated.py).
_PW_EXPECTS = {
    "Page": "expect_console_message expect_download expect_event expect_file_chooser expect_navigation expect_popup "
    "expect_request expect_request_finished expect_response expect_websocket expect_worker",
    "BrowserContext": "expect_console_message expect_event expect_page",
    "Frame": "expect_navigation",
}

_PW = "playwright.sync_api"
#: Methods building a locator or registering a handler locally: no round trip.
_PW_LOCATORS = frozenset(
    "locator frame_locator get_by_alt_text get_by_label get_by_placeholder get_by_role get_by_test_id "
    "get_by_text get_by_title get_by_ref nth filter and_ or_".split()
)
_PW_LOCAL = _PW_LOCATORS | frozenset(
    "on once remove_listener set_default_timeout set_default_navigation_timeout is_closed is_connected".split()
)

APIS: tuple[BlockingApi, ...] = (
    # --- Selenium ------------------------------------------------------------------------------
    # Constructing a driver starts a driver process and a browser session: seconds.
    *many(
        "browser",
        "network",
        "to-thread",
        " ".join(_DRIVERS),
        "selenium.webdriver.",
        source=f"{_SELENIUM} selenium/webdriver/__init__.py (_LAZY_IMPORTS)",
        twin=SELENIUM_TWIN,
    ),
    *(
        entry(
            f"selenium.webdriver.{name}.**",
            "browser",
            "network",
            "to-thread",
            _DRIVER_LOCAL,
            f"{_SELENIUM} selenium/webdriver/remote/webdriver.py (every command goes through execute())",
            SELENIUM_TWIN,
        )
        for name in _DRIVERS
    ),
    # A local driver's quick commands, and its scripts graded by what they do (module docstring).
    *(
        api
        for name in _LOCAL_DRIVERS
        for api in (
            *many(
                "browser",
                "driver-command",
                "to-thread",
                _DRIVER_QUICK,
                f"selenium.webdriver.{name}.",
                source=f"{_SELENIUM} selenium/webdriver/remote/webdriver.py (SET_TIMEOUTS, GET_WINDOW_RECT)",
                twin=SELENIUM_TWIN,
            ),
            entry(
                f"selenium.webdriver.{name}.execute_script",
                "browser",
                "script",
                "to-thread",
                frozenset(),
                f"{_SELENIUM} selenium/webdriver/remote/webdriver.py (W3C_EXECUTE_SCRIPT: runs the script "
                "in the page, awaiting a promise it returns)",
                SELENIUM_TWIN,
            ),
        )
    ),
    entry(
        f"{_ELEMENT}.**",
        "browser",
        "network",
        "to-thread",
        frozenset(),
        f"{_SELENIUM} selenium/webdriver/remote/webelement.py (every method calls _execute)",
        SELENIUM_TWIN,
    ),
    *(
        api
        for wait in _WAITS
        for api in many(
            "browser",
            "network",
            "to-thread",
            "until until_not",
            f"{wait}.",
            source=f"{_SELENIUM} selenium/webdriver/support/wait.py (polls the driver, time.sleep between)",
            twin=SELENIUM_TWIN,
        )
    ),
    *(
        entry(
            f"{actions}.perform",
            "browser",
            "network",
            "to-thread",
            frozenset(),
            f"{_SELENIUM} selenium/webdriver/common/action_chains.py (perform sends the queued actions)",
            SELENIUM_TWIN,
        )
        for actions in _ACTIONS
    ),
    *(
        entry(
            f"{select}.**",
            "browser",
            "network",
            "to-thread",
            frozenset(),
            f"{_SELENIUM} selenium/webdriver/support/select.py",
            SELENIUM_TWIN,
        )
        for select in _SELECTS
    ),
    # ``driver.switch_to`` is a local object; its methods send commands, as do an alert's.
    entry(
        f"{_SWITCH_TO}.**",
        "browser",
        "network",
        "to-thread",
        frozenset(),
        f"{_SELENIUM} selenium/webdriver/remote/switch_to.py (every method calls self._driver.execute)",
        SELENIUM_TWIN,
    ),
    entry(
        f"{_ALERT}.**",
        "browser",
        "network",
        "to-thread",
        frozenset(),
        f"{_SELENIUM} selenium/webdriver/common/alert.py (every method calls self.driver.execute)",
        SELENIUM_TWIN,
    ),
    # --- Selenium properties that are round trips (read, not called) -----------------------------
    *(
        api
        for name in _DRIVERS
        for api in reads(
            "browser",
            "network",
            "to-thread",
            _DRIVER_READS,
            f"selenium.webdriver.{name}",
            source=f"{_SELENIUM} selenium/webdriver/remote/webdriver.py (the getter calls self.execute)",
            twin=SELENIUM_TWIN,
        )
    ),
    *(
        api
        for name in _LOCAL_DRIVERS
        for api in reads(
            "browser",
            "driver-command",
            "to-thread",
            _DRIVER_QUICK_READS,
            f"selenium.webdriver.{name}",
            source=f"{_SELENIUM} selenium/webdriver/remote/webdriver.py (GET_TIMEOUTS, window handles)",
            twin=SELENIUM_TWIN,
        )
    ),
    *reads(
        "browser",
        "network",
        "to-thread",
        _DRIVER_QUICK_READS,
        "selenium.webdriver.Remote",
        source=f"{_SELENIUM} selenium/webdriver/remote/webdriver.py (the getter calls self.execute)",
        twin=SELENIUM_TWIN,
    ),
    *reads(
        "browser",
        "network",
        "to-thread",
        _ELEMENT_READS,
        _ELEMENT,
        source=f"{_SELENIUM} selenium/webdriver/remote/webelement.py (the getter calls self._execute)",
        twin=SELENIUM_TWIN,
    ),
    # ``switch_to.alert`` reads the alert's text to check there is one.
    *reads(
        "browser",
        "network",
        "to-thread",
        "active_element alert",
        _SWITCH_TO,
        source=f"{_SELENIUM} selenium/webdriver/remote/switch_to.py (the getter calls execute)",
        twin=SELENIUM_TWIN,
    ),
    *reads(
        "browser",
        "network",
        "to-thread",
        "text",
        _ALERT,
        source=f"{_SELENIUM} selenium/webdriver/common/alert.py (the getter calls self.driver.execute)",
        twin=SELENIUM_TWIN,
    ),
    # --- Playwright sync API --------------------------------------------------------------------
    # The call that starts the driver when entered (or .start()-ed); nothing else is done with it.
    entry(
        f"{_PW}.sync_playwright",
        "browser",
        "network",
        None,
        frozenset(),
        "source: pkg playwright 1.65.2 playwright/sync_api/_context_manager.py",
        PLAYWRIGHT_TWIN,
    ),
    *(
        entry(f"{_PW}.{cls}.**", "browser", "network", None, _PW_LOCAL, _PLAYWRIGHT, PLAYWRIGHT_TWIN)
        for cls in (
            "Playwright",
            "Browser",
            "BrowserContext",
            "Page",
            "Frame",
            "Locator",
            "ElementHandle",
            "FrameLocator",
            "Keyboard",
            "Mouse",
            "APIRequestContext",
        )
    ),
    # ``with page.expect_navigation() as info: ...`` then ``info.value``: waits for the event.
    *reads(
        "browser",
        "network",
        None,
        "value",
        _EVENT_INFO,
        source="source: pkg playwright 1.65.2 playwright/_impl/_sync_base.py (EventInfo.value calls wait_for_future)",
        twin=PLAYWRIGHT_TWIN,
    ),
)

RETURNS: dict[str, str] = {
    # Driver classes as annotations name them (``driver: WebDriver``), and their modules.
    **{
        f"selenium.webdriver.{module}.webdriver.WebDriver": f"selenium.webdriver.{name}"
        for name, module in _DRIVERS.items()
        if name != "ChromiumEdge"
    },
    "selenium.webdriver.chromium.webdriver.ChromiumDriver": "selenium.webdriver.Chrome",
    "selenium.webdriver.WebElement": _ELEMENT,
    # A list of elements is named like an element: the analysis keeps a type through ``[i]``,
    # and iterating it (ITEMS) gives elements.
    **{
        f"selenium.webdriver.{name}.{method}()": _ELEMENT
        for name in _DRIVERS
        for method in ("find_element", "find_elements")
    },
    **{f"{_ELEMENT}.{method}()": _ELEMENT for method in ("find_element", "find_elements")},
    **{f"{wait}.{method}()": _ELEMENT for wait in _WAITS for method in ("until",)},
    **{f"{actions}.{method}()": actions for actions in _ACTIONS for method in _QUEUED},
    "selenium.webdriver.common.action_chains.ActionChains": "selenium.webdriver.ActionChains",
    # What the properties give: ``driver.switch_to`` (local), and the round trips returning objects.
    **{f"selenium.webdriver.{name}.switch_to": _SWITCH_TO for name in _DRIVERS},
    f"{_SWITCH_TO}.alert": _ALERT,
    f"{_SWITCH_TO}.active_element": _ELEMENT,
    # Playwright: the objects each call returns.
    f"{_PW}.sync_playwright.start()": f"{_PW}.Playwright",
    **{
        f"{_PW}.Playwright.{engine}.{method}()": f"{_PW}.Browser"
        for engine in ("chromium", "firefox", "webkit")
        for method in ("launch", "connect", "connect_over_cdp")
    },
    **{
        f"{_PW}.Playwright.{engine}.launch_persistent_context()": f"{_PW}.BrowserContext"
        for engine in ("chromium", "firefox", "webkit")
    },
    f"{_PW}.Browser.new_context()": f"{_PW}.BrowserContext",
    f"{_PW}.Browser.new_page()": f"{_PW}.Page",
    f"{_PW}.BrowserContext.new_page()": f"{_PW}.Page",
    **{
        f"{_PW}.{owner}.{method}()": f"{_PW}.Locator"
        for owner in ("Page", "Frame", "Locator", "FrameLocator")
        for method in _PW_LOCATORS - {"frame_locator"}
    },
    **{
        f"{_PW}.{owner}.frame_locator()": f"{_PW}.FrameLocator"
        for owner in ("Page", "Frame", "Locator", "FrameLocator")
    },
    **{
        f"{_PW}.{owner}.{method}()": f"{_PW}.ElementHandle"
        for owner in ("Page", "Frame", "ElementHandle")
        for method in ("query_selector", "wait_for_selector")
    },
    f"{_PW}.Page.query_selector_all()": f"{_PW}.ElementHandle",
    # The generated classes, as annotations may name them.
    **{
        f"{_PW}._generated.{cls}": f"{_PW}.{cls}"
        for cls in ("Playwright", "Browser", "BrowserContext", "Page", "Frame", "Locator", "ElementHandle")
    },
}

ITEMS: dict[str, str] = {
    _ELEMENT: _ELEMENT,
    f"{_PW}.ElementHandle": f"{_PW}.ElementHandle",
}

ENTER_RETURNS: dict[str, str] = {
    **{
        f"{_PW}.{owner}.{method}()": _EVENT_INFO for owner, methods in _PW_EXPECTS.items() for method in methods.split()
    },
    f"{_PW}.sync_playwright": f"{_PW}.Playwright",
    f"{_PW}.sync_playwright.__enter__": f"{_PW}.Playwright",
}
