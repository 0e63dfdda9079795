class ErrorbarContainer(object):
    pass
