"""An environment driving packages that export their API lazily or by star imports."""

import lazylib
import starlib
from selenium import webdriver
from seleniumwire import webdriver as wire


async def setup_state(state: dict) -> dict:
    options = webdriver.ChromeOptions()  # a local object: deep mode reads the package to know
    options.add_argument("--headless")
    driver = webdriver.Chrome(options=options)  # expect: ASL114 critical
    state["driver"] = driver
    state["driver"].get(state["url"])  # expect: ASL114 critical
    state["page"] = lazylib.Fetcher().fetch(state["url"])  # expect: ASL102 critical
    state["label"] = lazylib.Fetcher().label(state["url"])  # pure: nothing blocks inside
    state["rows"] = lazylib.load_rows(state["path"])  # expect: ASL107 high
    lazylib.pause(1)  # expect: ASL101 critical
    state["at"] = lazylib.now()
    state["reply"] = starlib.complete(state["prompt"])  # expect: ASL101 critical
    starlib.wipe(state["workdir"])  # expect: ASL109 high
    return state


async def env_response(messages: list, state: dict) -> list:
    state["wire"] = wire.Chrome()  # expect: ASL114 critical
    state["wire"].get(state["url"])  # expect: ASL114 critical
    recorder = wire.Recorder()  # expect: ASL114 critical
    recorder.get(state["url"])  # overridden in the subclass: nothing blocks inside
    return messages
