#!/usr/bin/env python3
"""Mutation testing of the lines the series adds (make mutants).

Subcommands (scripts/mutants.sh drives them):

  list TREE LIST FILE...   write the mutants of FILEs' added lines to LIST (JSON)
  show LIST [ID...]        one line per mutant: id, file:line, mutation
  select LIST              the ids to run: MUTANTS_IDS, then MUTANTS_LIMIT
  apply TREE LIST ID       write mutant ID into its file; prints the file
  cases JSON               one line per KUnit case: STATUS suite.case
  judge BASE JSON LOG      compare a run with the unmutated one: prints
                           "killed: why" or "survived"
  report LIST STATE EQUIV  totals, score and survivors of a run
  table LIST STATE         one line per mutant run: id, result, seconds

A mutant changes one site on one line of code inside a function body:
&& <-> ||, == <-> !=, < > <= >= (negated and off by one), a unary ! removed,
true <-> false, a return value flipped, a single-line call statement
deleted, |= <-> &= ~.  Comments, strings, preprocessor lines and lines the
series does not add are never mutated, nor the bodies of the KUnit static
stub helpers (hardware accesses: KUnit always redirects them) unless
MUTANTS_STUBS=1.  The list depends only on the tree's text: the same
series gives the same ids.
"""

import json
import os
import re
import subprocess
import sys

# Stable id prefixes: parent directory and file name.
def file_prefix(path):
    parts = path.split('/')
    stem = os.path.splitext(parts[-1])[0]
    parent = parts[-2] if len(parts) > 1 else 'top'
    return '%s-%s' % (parent, stem.replace('_', '-'))


def mask(text):
    """TEXT with comments and the contents of string and character
    literals replaced by spaces; newlines and columns are kept."""
    out = []
    i, n = 0, len(text)
    state = None
    while i < n:
        c = text[i]
        if state is None:
            if text.startswith('/*', i):
                state = 'block'
                out.append('  ')
                i += 2
                continue
            if text.startswith('//', i):
                state = 'line'
                out.append('  ')
                i += 2
                continue
            if c in '"\'':
                state = c
            out.append(c)
            i += 1
        elif state == 'block':
            if text.startswith('*/', i):
                state = None
                out.append('  ')
                i += 2
                continue
            out.append('\n' if c == '\n' else ' ')
            i += 1
        elif state == 'line':
            if c == '\n':
                state = None
            out.append('\n' if c == '\n' else ' ')
            i += 1
        else:
            if c == '\\' and i + 1 < n:
                out.append(' \n' if text[i + 1] == '\n' else '  ')
                i += 2
                continue
            if c == state:
                state = None
                out.append(c)
            else:
                out.append('\n' if c == '\n' else ' ')
            i += 1
    return ''.join(out)


TOKEN = re.compile(r'''
    (?P<id>[A-Za-z_]\w*)
  | (?P<num>\d[\w.]*)
  | (?P<str>"[^"\n]*"|'[^'\n]*')
  | (?P<op><<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=
        |[-+*/%&|^~!<>=?:;,.(){}\[\]])
  | (?P<ws>\s+)
  | (?P<other>.)
''', re.X)


def tokens(line):
    """(kind, text, column) of the tokens of a masked line, blanks left out."""
    toks = []
    for m in TOKEN.finditer(line):
        kind = m.lastgroup
        if kind != 'ws':
            toks.append((kind, m.group(), m.start()))
    return toks


KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else',
            'case', 'default', 'goto', 'break', 'continue'}


class Function:
    def __init__(self, name, rettype, start):
        self.name = name
        self.rettype = rettype
        self.start = start
        self.end = start
        self.stub = False

    @property
    def kind(self):
        words = re.findall(r'[A-Za-z_]\w*', self.rettype)
        if '*' in self.rettype:
            return 'pointer'
        if 'void' in words:
            return 'void'
        if 'bool' in words:
            return 'bool'
        return 'int'


def parse_functions(masked_lines):
    """Which function body each line is in (index -> Function or None) and
    which lines are preprocessor lines."""
    func_of = [None] * len(masked_lines)
    preproc = [False] * len(masked_lines)
    depth = 0
    header = ''
    current = None
    continued = False
    for i, line in enumerate(masked_lines):
        if continued or line.lstrip().startswith('#'):
            preproc[i] = True
            continued = line.rstrip().endswith('\\')
            if depth == 0:
                header = ''
            continue
        if current is not None:
            func_of[i] = current
        for kind, text, _ in tokens(line):
            if depth == 0:
                if text in (';', '}'):
                    header = ''
                    continue
                if text == '{':
                    depth = 1
                    m = re.match(r'(?s)(.*?)([A-Za-z_]\w*)\s*\(', header)
                    if m and '=' not in header.split('(')[0]:
                        current = Function(m.group(2), m.group(1), i)
                        func_of[i] = current
                    header = ''
                    continue
                header += ' ' + text
                continue
            if text == '{':
                depth += 1
            elif text == '}':
                depth -= 1
                if depth == 0 and current is not None:
                    current.end = i
                    current = None
            elif kind == 'id' and text == 'KUNIT_STATIC_STUB_REDIRECT' and current:
                current.stub = True
    return func_of, preproc


def added_lines(tree, path):
    """Line numbers (1-based) of PATH that the product series adds."""
    diff = subprocess.run(
        ['git', '-C', tree, '-c', 'diff.noprefix=false', 'diff', '--no-color',
         '--no-ext-diff', '--no-renames', '-U0', 'base', 'product', '--', path],
        check=True, capture_output=True, text=True).stdout
    added = set()
    for m in re.finditer(r'^@@ -\S+ \+(\d+)(?:,(\d+))? @@', diff, re.M):
        start, count = int(m.group(1)), int(m.group(2) or '1')
        added.update(range(start, start + count))
    return added


def statement_end(toks, start):
    """Index of the ';' that ends the statement begun at toks[start], or None
    if it is not on this line."""
    level = 0
    for j in range(start, len(toks)):
        t = toks[j][1]
        if t in '([{':
            level += 1
        elif t in ')]}':
            level -= 1
            if level < 0:
                return None
        elif t == ';' and level == 0:
            return j
    return None


def call_statement(toks):
    """True if the line is exactly one complete call statement NAME(...);"""
    if len(toks) < 4 or toks[0][0] != 'id' or toks[0][1] in KEYWORDS:
        return False
    if toks[1][1] != '(' or toks[-1][1] != ';' or toks[-2][1] != ')':
        return False
    level = 0
    for j in range(1, len(toks) - 1):
        t = toks[j][1]
        if t == '(':
            level += 1
        elif t == ')':
            level -= 1
            if level == 0 and j != len(toks) - 2:
                return False
    return level == 0


# The last token of a line after which the next line starts a statement.
STATEMENT_BEFORE = {';', '{', '}', ')', ':', 'else', 'do'}

COMPARE = {
    '<': ['>=', '<='],
    '>': ['<=', '>='],
    '<=': ['>', '<'],
    '>=': ['<', '>'],
    '==': ['!='],
    '!=': ['=='],
    '&&': ['||'],
    '||': ['&&'],
}


class Source:
    """A C file: its lines, the same with comments and literals masked,
    the tokens of each line (none on preprocessor lines) and all tokens in
    order, as (line index, index in the line)."""

    def __init__(self, text):
        self.lines = text.split('\n')
        self.masked = mask(text).split('\n')
        self.func_of, self.preproc = parse_functions(self.masked)
        self.toks = [[] if pre else tokens(m) for m, pre in zip(self.masked, self.preproc)]
        self.flat = [(i, j) for i, lt in enumerate(self.toks) for j in range(len(lt))]
        self.flat_index = {pos: k for k, pos in enumerate(self.flat)}

    def tok(self, k):
        i, j = self.flat[k]
        return (i,) + self.toks[i][j]          # (line, kind, text, col)


# Where an operand of && or || ends: lower-precedence operators and the
# edges of the enclosing parentheses, call arguments or statement.
OPERAND_EDGE = {',', ';', '?', ':', '=', '+=', '-=', '*=', '/=', '%=', '&=', '|=',
                '^=', '<<=', '>>=', '{', '}', 'return'}


def logical_operands(src, k):
    """For the && or || that is token K: (first, last) token of its left and
    right operands, and whether another && or || joins them at the same
    level (then the swapped operator needs parentheses: -Wparentheses)."""
    def scan(step):
        level = 0
        j = k + step
        while 0 <= j < len(src.flat):
            text = src.tok(j)[2]
            if text in (')', ']') if step < 0 else text in ('(', '['):
                level += 1
            elif text in ('(', '[') if step < 0 else text in (')', ']'):
                if level == 0:
                    return j, False
                level -= 1
            elif level == 0 and text in ('&&', '||'):
                return j, True
            elif level == 0 and text in OPERAND_EDGE:
                return j, False
            j += step
        return j, False
    left, lmix = scan(-1)
    right, rmix = scan(1)
    return left + 1, right - 1, lmix or rmix


def out_parameter(src, func, name):
    """NAME is a local of FUNC declared without an initializer: a call that
    takes &NAME fills it, and deleting the call leaves it uninitialized."""
    decl = re.compile(r'^\s*[A-Za-z_][\w\s]*[\s*]%s(\[[^\]]*\])?\s*;' % re.escape(name))
    return any(decl.match(src.masked[i]) for i in range(func.start, func.end + 1))


def line_mutants(src, i, func, starts_statement):
    """([(line, column, old, new), ...], description) for line I of code: the
    first edit is the mutation, any others parentheses it needs.
    STARTS_STATEMENT: the line does not continue the previous one."""
    orig = src.lines[i]
    toks = src.toks[i]
    muts = []

    def one(col, old, new, desc):
        muts.append(([(i, col, old, new)], desc))

    for j, (kind, text, col) in enumerate(toks):
        prev = toks[j - 1][1] if j > 0 else ''
        nxt = toks[j + 1][1] if j + 1 < len(toks) else ''
        if kind == 'op' and text in ('&&', '||'):
            new = '||' if text == '&&' else '&&'
            desc = "'%s' -> '%s'" % (text, new)
            first, last, mixed = logical_operands(src, src.flat_index[(i, j)])
            edits = [(i, col, text, new)]
            if mixed:
                fi, _, _, fcol = src.tok(first)
                li, _, ltext, lcol = src.tok(last)
                edits += [(fi, fcol, '', '('), (li, lcol + len(ltext), '', ')')]
            muts.append((edits, desc))
        elif kind == 'op' and text in COMPARE:
            for new in COMPARE[text]:
                one(col, text, new, "'%s' -> '%s'" % (text, new))
        elif kind == 'op' and text == '!' and prev != '!' and nxt != '!':
            one(col, '!', '', "remove '!'")
        elif kind == 'id' and text in ('true', 'false'):
            new = 'false' if text == 'true' else 'true'
            one(col, text, new, "'%s' -> '%s'" % (text, new))
        elif kind == 'op' and text == '&=':
            if nxt == '~':
                end = toks[j + 1][2] + 1
                one(col, orig[col:end], '|= ', "'&= ~' -> '|='")
            else:
                one(col, '&=', '|=', "'&=' -> '|='")
        elif kind == 'op' and text == '|=':
            k = statement_end(toks, j + 1)
            if k is not None:
                rhs = orig[col + 2:toks[k][2]].strip()
                one(col, orig[col:toks[k][2]], '&= ~(%s)' % rhs, "'|=' -> '&= ~'")
        elif kind == 'id' and text == 'return' and func.kind != 'void':
            k = statement_end(toks, j + 1)
            if k is None or k == j + 1:
                continue
            ecol = toks[j + 1][2]
            expr = orig[ecol:toks[k][2]].rstrip()
            if func.kind == 'bool':
                if expr in ('true', 'false') or expr.startswith('!'):
                    continue
                one(ecol, expr, '!(%s)' % expr, 'return X -> return !(X)')
            elif func.kind == 'pointer':
                if expr != 'NULL':
                    one(ecol, expr, 'NULL', 'return X -> return NULL')
            elif expr == '0':
                one(ecol, expr, '1', "'return 0' -> 'return 1'")
            else:
                one(ecol, expr, '0', "'return %s' -> 'return 0'" %
                    (expr if len(expr) <= 24 else 'X'))
    if starts_statement and call_statement(toks):
        outs = [toks[j + 1][1] for j in range(len(toks) - 2)
                if toks[j][1] == '&' and toks[j - 1][1] in ('(', ',')
                and toks[j + 1][0] == 'id' and toks[j + 2][1] in (',', ')')]
        if not any(out_parameter(src, func, name) for name in outs):
            start = toks[0][2]
            end = toks[-1][2] + 1
            one(start, orig[start:end], ';', 'delete call %s()' % toks[0][1])
    # The same description twice on a line: number them.
    seen = {}
    for _, desc in muts:
        seen[desc] = seen.get(desc, 0) + 1
    count = {}
    out = []
    for edits, desc in muts:
        if seen[desc] > 1:
            count[desc] = count.get(desc, 0) + 1
            desc = '%s (#%d)' % (desc, count[desc])
        out.append((edits, desc))
    return out


def apply_edits(lines, edits):
    """LINES (0-based) with EDITS [(line, column, old, new)] made; None if
    the text at an edit is not OLD."""
    lines = list(lines)
    for li, col, old, new in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        line = lines[li]
        if line[col:col + len(old)] != old:
            return None
        lines[li] = line[:col] + new + line[col + len(old):]
    return lines


def cmd_list(tree, listfile, files):
    stubs = os.environ.get('MUTANTS_STUBS', '0') == '1'
    mutants = []
    summary = []
    for path in files:
        with open(os.path.join(tree, path)) as f:
            src = Source(f.read())
        added = added_lines(tree, path)
        prefix = file_prefix(path)
        n = 0
        code_lines = 0
        skipped_stubs = set()
        last = ';'
        for i, line in enumerate(src.lines):
            lineno = i + 1
            func = src.func_of[i]
            starts_statement = last in STATEMENT_BEFORE
            if src.toks[i]:
                last = src.toks[i][-1][1]
            if lineno not in added or src.preproc[i] or func is None or i == func.start:
                continue
            if not src.masked[i].strip() or src.masked[i].strip() in ('{', '}'):
                continue
            if func.stub and not stubs:
                skipped_stubs.add(func.name)
                continue
            code_lines += 1
            for edits, desc in line_mutants(src, i, func, starts_statement):
                mutated = apply_edits(src.lines, edits)
                assert mutated is not None, (path, lineno, edits)
                n += 1
                mutants.append({
                    'id': '%s-%03d' % (prefix, n), 'file': path, 'line': lineno,
                    'desc': desc, 'function': func.name, 'text': line.strip(),
                    'edits': [[li + 1, col, old, new] for li, col, old, new in edits],
                    'mutated': mutated[i].strip(),
                })
        summary.append((path, len(added), code_lines, n, sorted(skipped_stubs)))
    with open(listfile, 'w') as f:
        json.dump(mutants, f, indent=1)
    for path, nadded, ncode, n, skipped in summary:
        print('%-28s %4d added lines, %3d code lines, %3d mutants' %
              (path, nadded, ncode, n))
        if skipped:
            print('  not mutated (KUnit static stub helpers, MUTANTS_STUBS=1 to include): %s'
                  % ', '.join(skipped))


def load(listfile):
    with open(listfile) as f:
        return json.load(f)


def fmt(m):
    return '%s  %s:%d  %s: %s' % (m['id'], m['file'], m['line'], m['desc'], m['mutated'])


def cmd_show(listfile, ids):
    for m in load(listfile):
        if not ids or m['id'] in ids:
            print(fmt(m))


def cmd_select(listfile):
    mutants = load(listfile)
    want = os.environ.get('MUTANTS_IDS', '').replace(',', ' ').split()
    if want:
        known = {m['id'] for m in mutants}
        unknown = [i for i in want if i not in known]
        if unknown:
            sys.exit('unknown mutant ids: %s' % ' '.join(unknown))
        mutants = [m for m in mutants if m['id'] in want]
    limit = os.environ.get('MUTANTS_LIMIT', '')
    if limit:
        mutants = mutants[:int(limit)]
    for m in mutants:
        print(m['id'])


def cmd_apply(tree, listfile, mid):
    m = next(m for m in load(listfile) if m['id'] == mid)
    path = os.path.join(tree, m['file'])
    with open(path) as f:
        lines = f.read().split('\n')
    mutated = apply_edits(lines, [(li - 1, col, old, new) for li, col, old, new in m['edits']])
    if mutated is None:
        sys.exit('%s: %s:%d no longer holds what the list says' % (mid, m['file'], m['line']))
    with open(path, 'w') as f:
        f.write('\n'.join(mutated))
    print(m['file'])


def cases(jsonfile):
    """suite.case -> status, from kunit.py's --json output."""
    out = {}

    def walk(group, prefix):
        for case in group.get('test_cases', []):
            out[prefix + case['name']] = case['status']
        for sub in group.get('sub_groups', []):
            walk(sub, prefix + sub['name'] + '.')

    with open(jsonfile) as f:
        walk(json.load(f), '')
    return out


def cmd_cases(jsonfile):
    for name, status in cases(jsonfile).items():
        print(status, name)


def cmd_judge(basefile, jsonfile, logfile):
    splats = re.compile(os.environ.get('KERNEL_SPLATS', 'WARNING:|BUG:|Oops'))
    if not os.path.exists(jsonfile) or os.path.getsize(jsonfile) == 0:
        print('killed: no KUnit result (kernel crashed or hung)')
        return
    base = cases(basefile)
    now = cases(jsonfile)
    failed = [n for n, s in now.items() if s not in ('PASS', 'SKIP')]
    missing = [n for n in base if n not in now]
    skipped = [n for n, s in now.items() if s == 'SKIP' and base.get(n) == 'PASS']
    why = []
    if failed:
        why.append('%d failed (%s%s)' % (len(failed), failed[0],
                                         ', ...' if len(failed) > 1 else ''))
    if missing:
        why.append('%d did not run (%s%s)' % (len(missing), missing[0],
                                              ', ...' if len(missing) > 1 else ''))
    if skipped:
        why.append('%d skipped that passed (%s)' % (len(skipped), skipped[0]))
    if os.path.exists(logfile):
        with open(logfile, errors='replace') as f:
            for line in f:
                if splats.search(line):
                    why.append('kernel log: %s' % line.strip()[:80])
                    break
    print('killed: ' + '; '.join(why) if why else 'survived')


def equivalents(path):
    """[(key, reason)] from the equivalent-mutants file.  A line is
    "ID | reason" or "file | mutation | line | reason": file may be
    file:function, the mutation as the list shows it ('&&' -> '||' (#2)),
    the line's text without its indentation (it may contain ' | ', the
    reason may not)."""
    out = []
    if not path or not os.path.exists(path):
        return out
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.split(' | ')]
            if len(parts) == 2 and '/' not in parts[0]:
                out.append((parts[0], parts[1]))
            elif len(parts) >= 4:
                out.append(((parts[0], parts[1], ' | '.join(parts[2:-1])), parts[-1]))
            else:
                sys.exit('%s: expected "ID | reason" or "file | mutation | line | reason": %s'
                         % (path, line))
    return out


def equivalent_reason(m, equiv):
    for key, reason in equiv:
        if key == m['id']:
            return reason
        if isinstance(key, str) or key[1:] != (m['desc'], m['text']):
            continue
        # FILE:FUNCTION where the same line is in several functions.
        if key[0] in (m['file'], '%s:%s' % (m['file'], m['function'])):
            return reason
    return None


def cmd_report(listfile, statefile, equivfile):
    mutants = {m['id']: m for m in load(listfile)}
    equiv = equivalents(equivfile)
    rows = []
    with open(statefile) as f:
        for raw in f:
            mid, status, secs, detail = raw.rstrip('\n').split('\t', 3)
            rows.append((mutants[mid], status, float(secs), detail))
    files = []
    for m in mutants.values():
        if m['file'] not in files:
            files.append(m['file'])
    per = {f: {'killed': 0, 'survived': 0, 'equivalent': 0, 'unbuilt': 0} for f in files}
    survivors, equivalent, unbuilt = [], [], []
    total = 0.0
    for m, status, secs, detail in rows:
        total += secs
        t = per[m['file']]
        if status == 'killed':
            t['killed'] += 1
        elif status == 'survived':
            reason = equivalent_reason(m, equiv)
            if reason:
                t['equivalent'] += 1
                equivalent.append((m, reason))
            else:
                t['survived'] += 1
                survivors.append(m)
        else:
            t['unbuilt'] += 1
            unbuilt.append(m)

    def score(k, s):
        return '%5.1f%%' % (100.0 * k / (k + s)) if k + s else '    -'

    print('mutants run: %d of %d, %.1f min (%.0f s per mutant)' %
          (len(rows), len(mutants), total / 60, total / len(rows) if rows else 0))
    print('%-28s %6s %6s %8s %8s %7s %6s' % ('file', 'run', 'killed', 'survived',
                                             'equival.', 'unbuilt', 'score'))
    ak = asv = 0
    for f in files:
        t = per[f]
        n = sum(t.values())
        if not n:
            continue
        ak += t['killed']
        asv += t['survived']
        print('%-28s %6d %6d %8d %8d %7d %6s' % (f, n, t['killed'], t['survived'],
                                                 t['equivalent'], t['unbuilt'],
                                                 score(t['killed'], t['survived'])))
    print('%-28s %6d %6d %8d %8d %7d %6s' % ('all', len(rows), ak, asv, len(equivalent),
                                             len(unbuilt), score(ak, asv)))
    print('score = killed / (killed + survived); equivalent survivors and mutants '
          'that did not build are not counted')
    if survivors:
        print('survived:')
        for m in survivors:
            print('  ' + fmt(m))
    if equivalent:
        print('survived (equivalent):')
        for m, reason in equivalent:
            print('  %s  (equivalent: %s)' % (fmt(m), reason))
    if unbuilt:
        print('did not build:')
        for m in unbuilt:
            print('  ' + fmt(m))
    # Entries for files this run did not mutate say nothing about it.
    stale = [key for key, _ in equiv
             if (any(key.startswith(file_prefix(f) + '-') for f in files)
                 if isinstance(key, str) else key[0].split(':')[0] in files) and
             not any(equivalent_reason(m, [(key, '')]) is not None for m in mutants.values())]
    if stale:
        print('entries of %s that match no mutant (remove or update them):' % equivfile)
        for key in stale:
            print('  ' + (key if isinstance(key, str) else ' | '.join(key)))


def cmd_table(listfile, statefile):
    mutants = {m['id']: m for m in load(listfile)}
    with open(statefile) as f:
        for raw in f:
            mid, status, secs, detail = raw.rstrip('\n').split('\t', 3)
            m = mutants[mid]
            print('%-14s %-8s %4ss  %s:%d  %s%s' % (mid, status, secs, m['file'], m['line'],
                                                  m['desc'], ': ' + detail if detail else ''))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    if cmd == 'list' and len(args) >= 3:
        cmd_list(args[0], args[1], args[2:])
    elif cmd == 'show' and args:
        cmd_show(args[0], set(args[1:]))
    elif cmd == 'select' and len(args) == 1:
        cmd_select(args[0])
    elif cmd == 'apply' and len(args) == 3:
        cmd_apply(*args)
    elif cmd == 'cases' and len(args) == 1:
        cmd_cases(args[0])
    elif cmd == 'judge' and len(args) == 3:
        cmd_judge(*args)
    elif cmd == 'report' and len(args) == 3:
        cmd_report(*args)
    elif cmd == 'table' and len(args) == 2:
        cmd_table(*args)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
