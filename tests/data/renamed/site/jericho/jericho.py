"""A stand-in for jericho/jericho.py: the knowledge base calls this class ``jericho.FrotzEnv``."""


class FrotzEnv:
    def __init__(self, story_file):
        self.story_file = story_file
        self.transcript = []

    def load(self, story_file):
        with open(story_file, "rb") as handle:
            self.story = handle.read()

    def get_score(self):
        return len(self.transcript)

    def save_transcript(self, path):
        with open(path, "w") as handle:
            handle.write("\n".join(self.transcript))
