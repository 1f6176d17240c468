# The Python-level layer of the sandbox. It is defence in depth and readable
# errors, not a boundary: the kernel layers are (namespaces, Landlock,
# seccomp, rlimits; see README.md). Run as: python3 -I -S -B -c <this> [kernel-only | root-modules]
# stdin: {"code": str, "input_data": {identifier: json}} (checked in Go first)
# fd 3:  after the helper's layer line: "run" right before the code is
#        compiled and run, then, when the code raised, one JSON line last:
#        {"type": "ValueError", "message": "..."}. The verdict is the
#        server's, from the helper's status channel (the interpreter's real
#        exit status, which this process never holds); the report only says
#        what the exception was. Exit status 0: the code ended; 1: it raised;
#        2 before "run": the prelude itself failed.
# stdout/stderr: the user's own prints; stderr also gets the user's traceback.
#
# The process ends with os._exit (no interpreter finalisation, where CPython
# runs objects' __del__ and atexit handlers after the audit hooks are
# cleared). The audit hook never allows frame attributes: the user's
# traceback comes from CPython's own C printer (sys.__excepthook__).
import sys
from os import _exit


def _sandbox_main():
    import os
    import builtins
    import json
    import io
    import operator

    report_fd = 3
    exit_now = os._exit
    write_fd = os.write
    real_compile = compile
    real_exec = exec
    args_of = BaseException.__dict__["args"].__get__
    tb_of = BaseException.__dict__["__traceback__"].__get__
    set_context = BaseException.__dict__["__context__"].__set__
    set_cause = BaseException.__dict__["__cause__"].__set__
    name_of = type.__dict__["__name__"].__get__
    type_of, is_sub, str_, repr_, int_, len_, callable_ = type, issubclass, str, repr, int, len, callable
    dumps = json.dumps
    StringIO = io.StringIO
    excepthook = sys.__excepthook__
    stdout, stderr = sys.stdout, sys.stderr
    import gc
    import signal
    gc_disable = gc.disable
    valid_signals, getsignal, set_signal, SIG_IGN = signal.valid_signals, signal.getsignal, signal.signal, signal.SIG_IGN

    req = json.loads(sys.stdin.buffer.read())
    code = req["code"]
    data = req.get("input_data") or {}
    del req
    kernel_only = sys.argv[1:] == ["kernel-only"]
    lines = code.splitlines()

    def quiet():
        # The code's Python signal handlers go (SIGPIPE from a write below
        # must not run them) and the collector stops (no finalisers).
        gc_disable()
        for s in valid_signals():
            try:
                if callable_(getsignal(s)):
                    set_signal(s, SIG_IGN)
            except BaseException:
                pass

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

    def user_frames(e):
        # CPython's C traceback printer reads the frames without audit
        # events; only the lines of the user's own code ("<code>") are kept,
        # with their source (library frames carry paths of the root).
        out = []
        try:
            set_context(e, None)
            set_cause(e, None)
            buf = StringIO()
            sys.stderr = buf
            try:
                excepthook(type_of(e), e, tb_of(e))
            finally:
                sys.stderr = stderr
            for line in buf.getvalue().split("\n"):
                if line.startswith('  File "<code>", line '):
                    ln, _, fn = line[len('  File "<code>", line '):].partition(", in ")
                    ln = int_(ln)
                    src = lines[ln - 1].strip() if 0 < ln <= len_(lines) else ""
                    out.append("  line %d, in %s\n    %s\n" % (ln, fn, src))
                elif line.startswith("  [Previous line repeated ") and out:
                    out.append(line + "\n")
        except BaseException:
            sys.stderr = stderr
            out = []
        if len_(out) > 13:  # deep recursion: keep the outer and inner frames
            out = out[:3] + ["  ... %d frames omitted\n" % (len_(out) - 13)] + out[-10:]
        return out

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

    def run(compiled, g):
        # Everything from here on is the code's: the server counts a failure
        # after this line as the code's own, and one before it as the
        # sandbox's.
        try:
            real_exec(compiled, g)
        except BaseException as e:
            quiet()
            kind, msg = describe(e)
            out = user_frames(e) if not kernel_only else []
            quiet()
            try:
                stderr.write("Traceback (most recent call last):\n" + "".join(out) + kind + ": " + msg + "\n")
            except BaseException:
                pass
            report_and_exit(kind, msg, 1)
        quiet()
        flush()
        exit_now(0)

    if kernel_only:
        # Test-only: no import whitelist, no restricted builtins, no audit
        # hook. Proves the kernel layers hold on their own.
        g = {"__name__": "__main__"}
        g.update(data)
        write_fd(report_fd, b"run\n")
        run(compile_user(), g)

    # The allowed modules and the helpers they import lazily (datetime.strftime
    # imports time, strptime imports _strptime/locale/calendar, Counter uses
    # heapq): import them all now, before the audit hook, so nothing is read
    # from disk afterwards.
    import math, datetime, statistics, itertools, functools, collections, re, string, random  # noqa
    import collections.abc, time, _strptime, locale, calendar, heapq, bisect, fractions, decimal  # noqa
    import numbers, keyword, enum, types, copy, reprlib, _random  # noqa

    allowed = ("collections", "datetime", "functools", "itertools", "json",
               "math", "random", "re", "statistics", "string")
    helpers = ("time", "_strptime", "locale", "_locale", "calendar", "heapq",
               "_heapq", "bisect", "_bisect", "operator", "_operator", "numbers",
               "keyword", "enum", "types", "copy", "reprlib", "fractions",
               "decimal", "_decimal", "_datetime", "_json", "_random",
               "_sha512", "_statistics", "_collections", "_functools",
               "_sre", "_string", "_collections_abc", "_thread", "builtins")

    def usable(m):
        n = m.__name__
        return n.partition(".")[0] in allowed or n in helpers

    # What the allowed modules use of sys, os, codecs and builtins at run
    # time: plain values, and callables that are not functions of sys or
    # posix (a C function's __self__ is its module). OrderedDict.__sizeof__
    # gets each part's own __sizeof__ (sys.getsizeof adds the collector's
    # header), namedtuple's names go uninterned, SystemRandom's bytes come
    # from a fresh generator seeded from the OS each call.
    safe_sys = types.SimpleNamespace(
        float_info=sys.float_info, int_info=sys.int_info, hash_info=sys.hash_info,
        maxsize=sys.maxsize, byteorder=sys.byteorder, version_info=sys.version_info,
        float_repr_style=sys.float_repr_style, platform=sys.platform, flags=sys.flags,
        implementation=types.SimpleNamespace(name=sys.implementation.name),
        getsizeof=operator.methodcaller("__sizeof__"), intern=str, maxunicode=sys.maxunicode)
    import codecs
    # Codecs the JSON decoder and str.encode look up lazily (the lookup
    # imports encodings.*): looked up once now, cached by the registry.
    for enc in ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                "utf-32-le", "utf-32-be", "latin-1", "ascii", "cp1252"):
        codecs.lookup(enc)
    if sys.argv[1:] == ["root-modules"]:
        # Everything a run loads is loaded by now: the server builds the
        # sandbox root from these files alone (run outside any sandbox, with
        # no user code, once at start).
        for name, m in sorted(sys.modules.items()):
            f = getattr(m, "__file__", None)
            if type_of(f) is str_:
                stdout.write(name + "\t" + f + "\n")
        stdout.flush()
        exit_now(0)
    safe_codecs = types.SimpleNamespace(**{k: v for k, v in vars(codecs).items() if k.startswith("BOM")})
    safe_builtins_mod = types.SimpleNamespace(bin=bin, property=property)
    stand_ins = {"sys": safe_sys, "codecs": safe_codecs}
    empty = types.SimpleNamespace()
    isolated = {"__builtins__": {}}
    real_exec(real_compile("def urandom(n, _R=R):\n    return _R().getrandbits(n * 8).to_bytes(n, 'little')\n", "<sandbox>", "exec"),
              dict(isolated, R=_random.Random), isolated)
    safe_urandom = isolated.pop("urandom")

    # Every module the user can reach: the allowed ones, their submodules and
    # the helpers. A module-valued attribute leading elsewhere (random._os,
    # statistics.sys, collections._sys, enum.sys, json.codecs) becomes a
    # stand-in, and so does a C function of such a module (random._urandom
    # is posix.urandom); loaders and specs (whose classes' functions lead to
    # importlib's globals) go.
    posix = sys.modules[os.name]
    table = {}
    for name, m in list(sys.modules.items()):
        if type_of(m) is types.ModuleType and (name.partition(".")[0] in allowed or name in helpers):
            table[name] = m
    for m in list(table.values()):
        d = vars(m)
        for k, v in list(d.items()):
            if type_of(v) is types.ModuleType:
                if v is builtins:
                    d[k] = safe_builtins_mod
                elif not usable(v):
                    d[k] = stand_ins.get(v.__name__, empty)
            elif type_of(v) is types.BuiltinFunctionType and (v.__self__ is sys or v.__self__ is posix):
                d[k] = safe_urandom if v is os.urandom else getattr(safe_sys, v.__name__, empty)
        for k in ("__loader__", "__spec__"):
            if k in d:
                d[k] = None
    table.pop("builtins", None)
    table.pop("_thread", None)

    def set_literal(names):
        # A set display of constants compiles to a frozenset constant of the
        # code object: no name is looked up when it is used.
        return "{" + ", ".join(repr_(n) for n in sorted(names)) + "}"

    # The import guard has no closure and reads no global: its tables are
    # tuples among its positional defaults (immutable, and the hook refuses
    # to set __defaults__), and so are the builtins it calls. It never calls
    # the import machinery.
    names = tuple(sorted(table))
    mods = tuple(table[n] for n in names)
    del table
    guard_src = ("def __import__(name, globals=None, locals=None, fromlist=(), level=0, _names=N, _mods=M,\n"
                 "               _type=T, _str=S, _IE=IE, _TE=TE, _allowed=A):\n"
                 "    if level != 0:\n"
                 "        raise _IE('relative imports are not available in the sandbox')\n"
                 "    if _type(name) is not _str:\n"
                 "        raise _TE('module name must be str')\n"
                 "    top = _str.partition(name, '.')[0]\n"
                 "    if name not in _names or top not in _names:\n"
                 "        raise _IE('import of %r is not allowed in the sandbox; allowed modules: %s'\n"
                 "                  % (name, _allowed), name=name)\n"
                 "    return _mods[_names.index(name if fromlist else top)]\n")
    guard_ns = {"__builtins__": {}}
    real_exec(real_compile(guard_src, "<sandbox>", "exec"),
              {"__builtins__": {}, "N": names, "M": mods, "T": type, "S": str, "IE": ImportError,
               "TE": TypeError, "A": ", ".join(allowed)}, guard_ns)
    guarded_import = guard_ns.pop("__import__")
    guarded_import.__globals__.clear()
    guarded_import.__globals__["__builtins__"] = {}

    removed = ("open", "eval", "exec", "compile", "input", "breakpoint", "help",
               "exit", "quit", "copyright", "credits", "license")
    # The real builtins' import too: every stdlib module's __builtins__ is
    # this dict (json.__builtins__["__import__"] would otherwise be the real
    # one). eval and exec stay there: namedtuple needs them, and running
    # code is what the user does anyway; open and the rest are audited.
    bd = vars(builtins)
    bd["__import__"] = guarded_import
    safe = {k: v for k, v in bd.items() if k not in removed}

    # The audit hook has no closure, no state and reads no global: its
    # allow-lists are frozenset constants of its own code object, and what it
    # calls comes from its defaults (Python calls it with two arguments), not
    # from builtins the user can reach and rebind. Frame attributes are never
    # allowed.
    hook_src = ("def hook(event, args, _str=str, _type=type, _RE=RuntimeError):\n"
                "    if event == 'import':\n"
                "        if _type(args[0]) is _str and (_str.partition(args[0], '.')[0] in ALLOWED or args[0] in HELPERS):\n"
                "            return\n"
                "    elif event in {'compile', 'exec', 'time.sleep', 'builtins.id'}:\n"
                "        return\n"
                "    elif event == 'object.__setattr__':\n"
                "        if _type(args[1]) is _str and args[1] not in {'__code__', '__globals__', '__closure__',\n"
                "                '__builtins__', '__defaults__', '__kwdefaults__', '__class__', '__bases__'}:\n"
                "            return\n"
                "    raise _RE('blocked by the sandbox: ' + event)\n"
                ).replace("ALLOWED", set_literal(allowed)).replace("HELPERS", set_literal(helpers))
    hook_ns = {"__builtins__": {}}
    real_exec(real_compile(hook_src, "<sandbox>", "exec"),
              {"__builtins__": {}, "str": str, "type": type, "RuntimeError": RuntimeError}, hook_ns)
    hook = hook_ns.pop("hook")
    hook.__globals__.clear()
    g = {"__name__": "__main__", "__builtins__": safe}
    g.update(data)
    write_fd(report_fd, b"run\n")
    compiled = compile_user()
    sys.addaudithook(hook)
    del hook, hook_ns, guard_ns, bd, mods, names
    run(compiled, g)


try:
    _sandbox_main()
except BaseException:
    # The prelude itself failed (e.g. input it could not decode): say so
    # without its frames, and let the server name it.
    _exit(2)
