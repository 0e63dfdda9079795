def greeting():
    return "hello from the build's package"
