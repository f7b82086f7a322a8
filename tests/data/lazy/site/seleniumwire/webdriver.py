from selenium.webdriver import Chrome as _Chrome


class DriverCommonMixin:
    def _setup_backend(self, options):
        return options


class Chrome(DriverCommonMixin, _Chrome):
    def __init__(self, *args, seleniumwire_options=None, **kwargs):
        self._setup_backend(seleniumwire_options)
        super().__init__(*args, **kwargs)


class Recorder(Chrome):
    def get(self, url):
        self.visited = url
