# A matplotlib that imports but whose first savefig writes part of its file
# and fails (study-report-atomic.test): the report must leave no file
# behind.


def use(backend):
    pass
