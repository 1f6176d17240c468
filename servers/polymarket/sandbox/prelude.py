# The Python-level layer of the sandbox. It is defence in depth and readable
# errors, not a boundary: the kernel layers are (namespaces, Landlock,
# seccomp, rlimits; see README.md). Run as: python3 -I -S -B -c <this> [kernel-only]
# stdin: {"code": str, "input_data": {identifier: json}} (checked in Go first)
# fd 3:  the report, one JSON line last: {"type": "ValueError", "message": "..."}
#        when the code failed. The server decides the verdict from the exit
#        status (the request's "done": the code ran to its end; 1: it raised,
#        see the report); the report only says what the exception was.
# stdout/stderr: the user's own prints; stderr also gets the user's traceback.
#
# Nothing here may call code the user can define once the user's code has
# run: exceptions are read through BaseException's own descriptors, names
# through type's, and the process ends with os._exit (no interpreter
# finalisation, where CPython runs objects' __del__ after the audit hooks
# are cleared).
import sys
from os import _exit


def _sandbox_main():
    import os
    import builtins
    import json

    report_fd = 3
    exit_now = os._exit
    write_fd = os.write
    real_compile = compile
    real_exec = exec
    tb_of = BaseException.__dict__["__traceback__"].__get__
    args_of = BaseException.__dict__["args"].__get__
    name_of = type.__dict__["__name__"].__get__
    type_of = type
    is_sub = issubclass
    str_ = str
    repr_ = repr
    dumps = json.dumps
    stdout, stderr = sys.stdout, sys.stderr
    import gc
    import signal
    gc_disable = gc.disable
    valid_signals, getsignal, set_signal, SIG_IGN = signal.valid_signals, signal.getsignal, signal.signal, signal.SIG_IGN

    req = json.loads(sys.stdin.buffer.read())
    code = req["code"]
    data = req.get("input_data") or {}
    done = req["done"]  # the exit status that tells the server the code ran to its end
    del req
    kernel_only = sys.argv[1:] == ["kernel-only"]

    def flush():
        for f in (stdout, stderr):
            try:
                f.flush()
            except BaseException:
                pass

    def report_and_exit(kind, message, status):
        # One JSON line, last, on its own line whatever the code wrote to fd 3.
        flush()
        try:
            line = "\n" + dumps({"type": kind, "message": message}) + "\n"
            write_fd(report_fd, line.encode("utf-8", "replace"))
        except BaseException:
            pass
        exit_now(status)

    def describe(e):
        # type(e) and type.__name__'s own getter: neither runs user code.
        cls = type_of(e)
        try:
            name = name_of(cls)
        except BaseException:
            name = "Exception"
        if is_sub(cls, MemoryError):
            return "MemoryError", "memory limit (512 MiB) reached"
        try:
            msg = str_(e)
            if type_of(msg) is not str_:
                raise TypeError
        except BaseException:
            try:
                msg = "(the exception's message could not be read: its __str__ failed) args=" + repr_(args_of(e))[:200]
            except BaseException:
                msg = "(the exception's message could not be read: its __str__ failed)"
        return name, msg

    def compile_user():
        try:
            return real_compile(code, "<code>", "exec")
        except SyntaxError as e:
            report_and_exit("SyntaxError", "%s (line %s)" % (e.msg, e.lineno), 1)
        except ValueError as e:  # NUL bytes
            report_and_exit("SyntaxError", "the code cannot be compiled: %s" % e, 1)
        except RecursionError:
            report_and_exit("SyntaxError", "the code is nested too deeply to compile (an expression or "
                            "statement of thousands of parts); split it into smaller steps", 1)
        except MemoryError:
            report_and_exit("SyntaxError", "the parser ran out of room for the code (nested too deeply, "
                            "e.g. thousands of unary operators or brackets); simplify it", 1)
        except BaseException as e:
            report_and_exit("SyntaxError", "the code cannot be compiled (%s)" % name_of(type_of(e)), 1)

    if kernel_only:
        # Test-only: no import whitelist, no restricted builtins, no audit
        # hook. Proves the kernel layers hold on their own.
        compiled = compile_user()
        g = {"__name__": "__main__"}
        g.update(data)
        try:
            real_exec(compiled, g)
        except BaseException as e:
            kind, msg = describe(e)
            try:
                stderr.write("%s: %s\n" % (kind, msg))
            except BaseException:
                pass
            report_and_exit(kind, msg, 1)
        flush()
        exit_now(done)

    # The allowed modules and the helpers they import lazily (datetime.strftime
    # imports time, strptime imports _strptime/locale/calendar, Counter uses
    # heapq): import them all now, before the audit hook, so nothing is read
    # from disk afterwards.
    import math, datetime, statistics, itertools, functools, collections, re, string, random  # noqa
    import collections.abc, time, _strptime, locale, calendar, heapq, bisect, fractions, decimal  # noqa
    import operator, numbers, keyword, enum, types, copy, reprlib  # noqa

    allowed = ("collections", "datetime", "functools", "itertools", "json",
               "math", "random", "re", "statistics", "string")
    helpers = frozenset(("time", "_strptime", "locale", "_locale", "calendar", "heapq",
                         "_heapq", "bisect", "_bisect", "operator", "_operator", "numbers",
                         "keyword", "enum", "types", "copy", "reprlib", "fractions",
                         "decimal", "_decimal", "_datetime", "_json", "_random",
                         "_sha512", "_statistics", "_collections", "_functools",
                         "_sre", "_string", "_collections_abc", "_thread", "builtins"))

    def usable(m):
        n = m.__name__
        return n.partition(".")[0] in allowed or n in helpers

    # What the allowed modules use of sys, os, codecs, encodings and copyreg
    # at run time: plain values and C functions (no __globals__ to walk).
    safe_sys = types.SimpleNamespace(
        float_info=sys.float_info, int_info=sys.int_info, hash_info=sys.hash_info,
        maxsize=sys.maxsize, byteorder=sys.byteorder, version_info=sys.version_info,
        float_repr_style=sys.float_repr_style, platform=sys.platform, flags=sys.flags,
        implementation=types.SimpleNamespace(name=sys.implementation.name),
        getrecursionlimit=sys.getrecursionlimit, getsizeof=sys.getsizeof, intern=sys.intern,
        maxunicode=sys.maxunicode)
    import codecs
    # Codecs the JSON decoder and str.encode look up lazily (the lookup
    # imports encodings.*): looked up once now, cached by the registry.
    for enc in ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                "utf-32-le", "utf-32-be", "latin-1", "ascii", "cp1252"):
        codecs.lookup(enc)
    safe_codecs = types.SimpleNamespace(**{k: v for k, v in vars(codecs).items() if k.startswith("BOM")})
    stand_ins = {"sys": safe_sys, "codecs": safe_codecs}
    empty = types.SimpleNamespace()

    # Every module the user can reach: the allowed ones, their submodules and
    # the helpers. A module-valued attribute leading elsewhere (random._os,
    # statistics.sys, collections._sys, collections.abc.sys, json.codecs)
    # becomes a stand-in; loaders and specs (whose classes' functions lead
    # to importlib's globals) go.
    table = {}
    for name, m in list(sys.modules.items()):
        if type_of(m) is types.ModuleType and (name.partition(".")[0] in allowed or name in helpers):
            table[name] = m
    for m in list(table.values()):
        d = vars(m)
        for k, v in list(d.items()):
            if type_of(v) is types.ModuleType and not usable(v):
                d[k] = stand_ins.get(v.__name__, empty)
        for k in ("__loader__", "__spec__"):
            if k in d:
                d[k] = None
    table.pop("builtins", None)
    table.pop("_thread", None)

    # The import guard is a function with no closure, defined in a globals
    # dict of its own holding only a read-only table of modules: there is no
    # cell to rewrite, and its globals lead to nothing the user does not
    # already have. It never calls the real import machinery.
    guard_globals = {"__builtins__": builtins, "_table": types.MappingProxyType(table),
                     "_allowed": ", ".join(allowed)}
    real_exec(real_compile('''
def __import__(name, globals=None, locals=None, fromlist=(), level=0):
    if level != 0:
        raise ImportError("relative imports are not available in the sandbox")
    if type(name) is not str:
        raise TypeError("module name must be str")
    top = name.partition(".")[0]
    if name not in _table or top not in _table:
        raise ImportError("import of %r is not allowed in the sandbox; allowed modules: %s"
                          % (name, _allowed), name=name)
    return _table[name] if fromlist else _table[top]
''', "<sandbox>", "exec"), guard_globals)
    guarded_import = guard_globals["__import__"]

    removed = ("open", "eval", "exec", "compile", "input", "breakpoint", "help",
               "exit", "quit", "copyright", "credits", "license")
    # The real builtins' import too: every stdlib module's __builtins__ is
    # this dict (json.__builtins__["__import__"] would otherwise be the real
    # one). eval and exec stay there: namedtuple needs them, and running
    # code is what the user does anyway; open and the rest are audited.
    bd = vars(builtins)
    bd["__import__"] = guarded_import
    safe = {k: v for k, v in bd.items() if k not in removed}

    # The audit hook has no closure: its allow-lists are constants of its own
    # code object, and what it calls comes from its defaults (Python calls it
    # with two arguments, so they cannot be overridden), not from the
    # builtins the user can reach and rewrite. Nothing the user can reach
    # refers to it. The one piece of state is `walking`, set only while the
    # prelude reads the frames of the user's traceback; see below.
    walking = [False]
    hook_globals = {"__builtins__": builtins, "walking": walking}
    real_exec(real_compile('''
def hook(event, args, _w=walking, _str=str, _type=type, _RE=RuntimeError):
    if event == "import":
        if _type(args[0]) is _str and (_str.partition(args[0], ".")[0] in %r or args[0] in %r):
            return
    elif event in {"compile", "exec", "time.sleep", "builtins.id"}:
        return
    elif event == "object.__getattr__":
        if _w[0]:
            return
    elif event == "object.__setattr__":
        if _type(args[1]) is _str and args[1] not in {"__code__", "__globals__", "__closure__",
                "__builtins__", "__defaults__", "__kwdefaults__", "__class__", "__bases__"}:
            return
    raise _RE("blocked by the sandbox: " + event)
''' % (frozenset(allowed), helpers), "<sandbox>", "exec"), hook_globals)
    hook = hook_globals.pop("hook")
    del hook_globals
    g = {"__name__": "__main__", "__builtins__": safe}
    g.update(data)
    compiled = compile_user()
    lines = code.splitlines()
    sys.addaudithook(hook)
    del hook
    try:
        real_exec(compiled, g)
    except BaseException as e:
        kind, msg = describe(e)
        # Frames of the user's code only (others carry library paths).
        # While `walking` is set the hook lets tb_frame be read, so no user
        # code may run in that window: the traceback comes from
        # BaseException's own descriptor (not a property the user's class
        # may define), every step reads C attributes of traceback, frame and
        # code objects, the collector cannot run finalisers, and no Python
        # signal handler of the user's is left to fire.
        out = []
        try:
            gc_disable()
            for s in valid_signals():
                try:
                    if callable(getsignal(s)):
                        set_signal(s, SIG_IGN)
                except BaseException:
                    pass
            tb = tb_of(e)
            walking[0] = True
            try:
                n = 0
                while tb is not None and n < 100000:
                    f = tb.tb_frame.f_code
                    if f.co_filename == "<code>":
                        ln = tb.tb_lineno
                        src = lines[ln - 1].strip() if ln is not None and 0 < ln <= len(lines) else ""
                        out.append("  line %s, in %s\n    %s\n" % (ln, f.co_name, src))
                    tb = tb.tb_next
                    n += 1
            finally:
                walking[0] = False
        except BaseException:
            out = []
        if len(out) > 13:  # deep recursion: keep the outer and inner frames
            out = out[:3] + ["  ... %d frames omitted\n" % (len(out) - 13)] + out[-10:]
        try:
            stderr.write("Traceback (most recent call last):\n" + "".join(out) + kind + ": " + msg + "\n")
        except BaseException:
            pass
        report_and_exit(kind, msg, 1)
    flush()
    exit_now(done)


try:
    _sandbox_main()
except BaseException:
    # The prelude itself failed (e.g. input it could not decode): say so
    # without its frames, and let the server name it.
    _exit(2)
