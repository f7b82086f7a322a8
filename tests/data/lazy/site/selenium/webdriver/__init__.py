import importlib

_LAZY_IMPORTS = {
    "Chrome": ("selenium.webdriver.chrome.webdriver", "WebDriver"),
    "ChromeOptions": ("selenium.webdriver.chrome.options", "Options"),
    "Remote": ("selenium.webdriver.remote.webdriver", "WebDriver"),
}

_LAZY_SUBMODULES = {
    "chrome": "selenium.webdriver.chrome",
    "remote": "selenium.webdriver.remote",
}


def __getattr__(name):
    if name in _LAZY_IMPORTS:
        module_path, attr_name = _LAZY_IMPORTS[name]
        value = getattr(importlib.import_module(module_path), attr_name)
        globals()[name] = value
        return value
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(_LAZY_SUBMODULES[name])
    raise AttributeError(name)
