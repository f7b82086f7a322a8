"""A stand-in for selenium 4.51 (read, never imported): ``selenium.webdriver`` exports its
drivers lazily, through a module ``__getattr__`` reading ``_LAZY_IMPORTS``."""
