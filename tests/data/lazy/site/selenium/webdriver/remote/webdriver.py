import urllib.request


class WebDriver:
    def __init__(self, options=None, command_executor="http://127.0.0.1:4444"):
        self.options = options
        self.command_executor = command_executor

    def execute(self, command):
        return urllib.request.urlopen(f"{self.command_executor}/{command}").read()

    def get(self, url):
        self.execute("get")
