rcParams = {}


class Axes(object):
    def get_legend_handles_labels(self):
        return [], []

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class Figure(object):
    def tight_layout(self):
        pass

    def savefig(self, path, **kwargs):
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n half a plot")
        raise OSError(28, "No space left on device (the test's stand-in)")


def subplots(*args, **kwargs):
    return Figure(), Axes()


def close(fig):
    pass
