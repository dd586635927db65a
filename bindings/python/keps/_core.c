/* keps._core: the CPython extension over libkeps (the headers in include/keps/).
 *
 * Why the C API and not cffi: the hot paths here are loops over a data
 * frame's cells (object columns are read as arrays of PyObject pointers,
 * each distinct object converted once) and over numpy buffers (noise), which
 * must run in C without the GIL; the buffer protocol gives both without a
 * build-time dependency on numpy's headers, and the package needs nothing
 * at run time beyond numpy and pandas.
 *
 * This module is private: the modules in keps/ validate arguments, convert pandas
 * objects and give the public API. Everything long runs with the GIL
 * released; the library's progress hook (keps/progress.h) reaches a Python
 * callable set per thread, at most ten times a second. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "keps/csv.h"
#include "keps/error.h"
#include "keps/hierarchy.h"
#include "keps/noise.h"
#include "keps/progress.h"
#include "keps/rng.h"
#include "keps/table.h"
#include "keps/version.h"

/* ------------------------------------------------------------ errors */

/* keps.InputError, keps.JobError, keps.ResourceError: set by _init(). */
static PyObject *exc_input, *exc_job, *exc_resource;

/* Raises the exception of err's status carrying its message; NULL. */
static PyObject *raise_keps(keps_status st, const keps_error *err)
{
    PyObject *type = st == KEPS_EINPUT ? exc_input : st == KEPS_EJOB ? exc_job : exc_resource;
    if (!type)
        type = PyExc_RuntimeError;
    const char *msg = err && err->msg[0] ? err->msg : st == KEPS_ENOMEM ? "out of memory" : "keps failed";
    PyObject *e = PyObject_CallFunction(type, "si", msg, (int)st);
    if (e) {
        PyErr_SetObject(type, e);
        Py_DECREF(e);
    }
    return NULL;
}

static PyObject *raise_input(const char *msg)
{
    keps_error err = {0};
    keps_error_set(&err, KEPS_EINPUT, "%s", msg);
    return raise_keps(KEPS_EINPUT, &err);
}

/* ------------------------------------------------------------ progress */

/* The callable of the current thread's call, and the exception it raised
 * (reported when the call returns: the library cannot be stopped midway). */
static _Thread_local PyObject *tls_progress;
static _Thread_local PyObject *tls_exc, *tls_exc_value, *tls_exc_tb;
static _Thread_local double tls_last;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress_hook(const char *what, double done, double total, void *ud)
{
    (void)ud;
    if (!tls_progress || tls_exc)
        return;
    double t = now_s();
    if (done < total && t - tls_last < 0.1)
        return;
    tls_last = t;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallFunction(tls_progress, "sdd", what, done, total);
    if (!r || PyErr_CheckSignals() < 0) {
        Py_XDECREF(r);
        r = NULL;
        PyErr_Fetch(&tls_exc, &tls_exc_value, &tls_exc_tb);
        if (!tls_exc) /* cannot happen: an error was set */
            tls_exc = Py_NewRef(PyExc_RuntimeError);
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
}

/* Sets the thread's progress callable (None or NULL: none) for one call. */
static void progress_begin(PyObject *cb)
{
    tls_progress = cb && cb != Py_None ? cb : NULL;
    tls_exc = NULL;
    tls_last = 0;
}

/* Ends the call's progress; -1 with the callable's exception set if it
 * raised (then the call's result is dropped). */
static int progress_end(void)
{
    tls_progress = NULL;
    if (tls_exc) {
        PyErr_Restore(tls_exc, tls_exc_value, tls_exc_tb);
        tls_exc = tls_exc_value = tls_exc_tb = NULL;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ Table */

typedef struct {
    PyObject_HEAD
    keps_table *t;
    PyObject *owner; /* not NULL: t belongs to it (a Hierarchy) */
} TableObject;

static PyTypeObject TableType;

static PyObject *table_wrap(keps_table *t, PyObject *owner)
{
    TableObject *o = PyObject_New(TableObject, &TableType);
    if (!o) {
        if (!owner)
            keps_table_free(t);
        return NULL;
    }
    o->t = t;
    o->owner = owner;
    Py_XINCREF(owner);
    return (PyObject *)o;
}

static void table_dealloc(TableObject *o)
{
    if (o->owner)
        Py_DECREF(o->owner);
    else
        keps_table_free(o->t);
    PyObject_Free(o);
}

static int table_live(TableObject *o)
{
    if (!o->t) {
        PyErr_SetString(PyExc_ValueError, "the table was handed over to a hierarchy");
        return -1;
    }
    return 0;
}

static int column_arg(TableObject *o, Py_ssize_t j)
{
    if (table_live(o))
        return -1;
    if (j < 0 || (size_t)j >= o->t->ncols) {
        PyErr_SetString(PyExc_IndexError, "column index out of range");
        return -1;
    }
    return 0;
}

static PyObject *table_nrows(TableObject *o, void *c)
{
    (void)c;
    if (table_live(o))
        return NULL;
    return PyLong_FromSize_t(o->t->nrows);
}

static PyObject *table_names(TableObject *o, void *c)
{
    (void)c;
    if (table_live(o))
        return NULL;
    PyObject *l = PyList_New((Py_ssize_t)o->t->ncols);
    for (size_t j = 0; l && j < o->t->ncols; j++) {
        PyObject *s = PyUnicode_DecodeUTF8(o->t->cols[j].name, (Py_ssize_t)strlen(o->t->cols[j].name), "replace");
        if (!s) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)j, s);
    }
    return l;
}

/* column(j) -> (codes: bytes of uint32 per row, values: list of str,
 * missing: the missing value's code or -1). */
static PyObject *table_column(TableObject *o, PyObject *arg)
{
    Py_ssize_t j = PyLong_AsSsize_t(arg);
    if ((j == -1 && PyErr_Occurred()) || column_arg(o, j))
        return NULL;
    const keps_column *c = &o->t->cols[j];
    PyObject *codes = PyBytes_FromStringAndSize((const char *)c->codes, (Py_ssize_t)(o->t->nrows * sizeof(uint32_t)));
    PyObject *vals = PyList_New((Py_ssize_t)c->nvalues);
    if (!codes || !vals)
        goto fail;
    for (uint32_t v = 0; v < c->nvalues; v++) {
        PyObject *s = PyUnicode_DecodeUTF8(c->values[v], (Py_ssize_t)strlen(c->values[v]), "surrogateescape");
        if (!s)
            goto fail;
        PyList_SET_ITEM(vals, v, s);
    }
    long miss = c->missing == KEPS_NONE ? -1 : (long)c->missing;
    return Py_BuildValue("NNl", codes, vals, miss);
fail:
    Py_XDECREF(codes);
    Py_XDECREF(vals);
    return NULL;
}

/* numeric(j) -> bytes of one float64 per value (NaN for the missing one)
 * when the column is numeric by keps's rules (keps_table_infer_type), else
 * None. */
static PyObject *table_numeric(TableObject *o, PyObject *arg)
{
    Py_ssize_t j = PyLong_AsSsize_t(arg);
    if ((j == -1 && PyErr_Occurred()) || column_arg(o, j))
        return NULL;
    if (keps_table_infer_type(o->t, (size_t)j, NULL, NULL) != KEPS_TYPE_NUMERIC)
        Py_RETURN_NONE;
    keps_error err = {0};
    keps_status st = keps_table_numeric(o->t, (size_t)j, &err);
    if (st)
        return raise_keps(st, &err);
    const keps_column *c = &o->t->cols[j];
    return PyBytes_FromStringAndSize((const char *)c->num, (Py_ssize_t)(c->nvalues * sizeof(double)));
}

/* decimals(j) -> the input precision of a numeric column. */
static PyObject *table_decimals(TableObject *o, PyObject *arg)
{
    Py_ssize_t j = PyLong_AsSsize_t(arg);
    if ((j == -1 && PyErr_Occurred()) || column_arg(o, j))
        return NULL;
    return PyLong_FromLong(keps_table_decimals(o->t, (size_t)j));
}

static PyGetSetDef table_getset[] = {
    {"nrows", (getter)table_nrows, NULL, "number of rows", NULL},
    {"names", (getter)table_names, NULL, "column names", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef table_methods[] = {
    {"column", (PyCFunction)table_column, METH_O, "column(j) -> (codes, values, missing)"},
    {"numeric", (PyCFunction)table_numeric, METH_O, "numeric(j) -> float64 bytes per value, or None"},
    {"decimals", (PyCFunction)table_decimals, METH_O, "decimals(j) -> input precision"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "keps._core.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_dealloc = (destructor)table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a libkeps table (dictionary-encoded columns); private",
    .tp_getset = table_getset,
    .tp_methods = table_methods,
};

/* ------------------------------------------------------------ Hierarchy */

typedef struct {
    PyObject_HEAD
    keps_hierarchy *h;
} HierarchyObject;

static PyTypeObject HierarchyType;

static PyObject *hierarchy_wrap(keps_hierarchy *h)
{
    HierarchyObject *o = PyObject_New(HierarchyObject, &HierarchyType);
    if (!o) {
        keps_hierarchy_free(h);
        return NULL;
    }
    o->h = h;
    return (PyObject *)o;
}

static void hierarchy_dealloc(HierarchyObject *o)
{
    keps_hierarchy_free(o->h);
    PyObject_Free(o);
}

/* levels -> a Table view of the levels (row = leaf, column j = level j). */
static PyObject *hierarchy_levels(HierarchyObject *o, void *c)
{
    (void)c;
    return table_wrap(o->h->levels, (PyObject *)o);
}

static PyGetSetDef hierarchy_getset[] = {
    {"levels", (getter)hierarchy_levels, NULL, "the levels as a Table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject HierarchyType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "keps._core.Hierarchy",
    .tp_basicsize = sizeof(HierarchyObject),
    .tp_dealloc = (destructor)hierarchy_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "a validated libkeps hierarchy; private",
    .tp_getset = hierarchy_getset,
};

/* ------------------------------------------------------------ frames in */

/* One column on its way into keps_table_append_columns: a dictionary of
 * UTF-8 strings (borrowed from str objects that stay alive for the call)
 * and one int32 code per row. */
typedef struct {
    const char **dict;
    size_t *lens;
    size_t ndict, cap;
    int32_t *codes;
    Py_buffer view;   /* the codes' buffer (dictionary columns) */
    int has_view;
} colbuf;

static int dict_push(colbuf *c, const char *s, size_t len)
{
    if (c->ndict == c->cap) {
        size_t n = c->cap ? c->cap * 2 : 16;
        const char **d = PyMem_Realloc(c->dict, n * sizeof *d);
        if (!d)
            return -1;
        c->dict = d;
        size_t *l = PyMem_Realloc(c->lens, n * sizeof *l);
        if (!l)
            return -1;
        c->lens = l;
        c->cap = n;
    }
    c->dict[c->ndict] = s;
    c->lens[c->ndict] = len;
    c->ndict++;
    return 0;
}

/* UTF-8 of str s (cached in s); a lone surrogate is an InputError. */
static const char *utf8_of(PyObject *s, size_t *len, const char *column)
{
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    if (!u) {
        PyErr_Clear();
        PyObject *m = PyUnicode_FromFormat("column '%s': a value is not valid Unicode (a lone surrogate); "
                                           "clean the text before anonymizing it", column);
        if (m) {
            raise_input(PyUnicode_AsUTF8(m));
            Py_DECREF(m);
        }
        return NULL;
    }
    *len = (size_t)n;
    return u;
}

/* A dictionary column: (codes, values) with codes an int32 buffer of nrows
 * and values a list of str. */
static int encode_dict(colbuf *c, PyObject *item, Py_ssize_t nrows, const char *column)
{
    PyObject *codes = PyTuple_GET_ITEM(item, 0), *vals = PyTuple_GET_ITEM(item, 1);
    if (PyObject_GetBuffer(codes, &c->view, PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    c->has_view = 1;
    if (c->view.len != nrows * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "codes: expected one int32 per row");
        return -1;
    }
    c->codes = c->view.buf;
    if (!PyList_Check(vals)) {
        PyErr_SetString(PyExc_TypeError, "values: expected a list of str");
        return -1;
    }
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(vals); k++) {
        PyObject *s = PyList_GET_ITEM(vals, k);
        size_t len;
        const char *u;
        if (!PyUnicode_Check(s)) {
            PyErr_SetString(PyExc_TypeError, "values: expected a list of str");
            return -1;
        }
        if (!(u = utf8_of(s, &len, column)) || dict_push(c, u, len))
            return u ? (PyErr_NoMemory(), -1) : -1;
    }
    return 0;
}

/* Pointer-keyed open addressing: a column's distinct objects (pandas
 * shares one str object per distinct value read from a file) are
 * converted once each. */
typedef struct {
    PyObject **key;
    int32_t *code;
    size_t n, used;
} ptrmap;

static size_t ptr_slot(const ptrmap *m, PyObject *o)
{
    size_t i = (size_t)(((uintptr_t)o >> 4) * 0x9E3779B97F4A7C15ull) & (m->n - 1);
    while (m->key[i] && m->key[i] != o)
        i = (i + 1) & (m->n - 1);
    return i;
}

static int ptr_grow(ptrmap *m)
{
    ptrmap g = {PyMem_Calloc(m->n * 2, sizeof(PyObject *)), PyMem_Malloc(m->n * 2 * sizeof(int32_t)), m->n * 2,
                m->used};
    if (!g.key || !g.code) {
        PyMem_Free(g.key);
        PyMem_Free(g.code);
        return -1;
    }
    for (size_t i = 0; i < m->n; i++)
        if (m->key[i]) {
            size_t s = ptr_slot(&g, m->key[i]);
            g.key[s] = m->key[i];
            g.code[s] = m->code[i];
        }
    PyMem_Free(m->key);
    PyMem_Free(m->code);
    *m = g;
    return 0;
}

/* Missing in a pandas object column: None, a float NaN (numpy's too),
 * pd.NA, pd.NaT (the singletons in na, a tuple). */
static int is_na(PyObject *o, PyObject *na)
{
    if (o == Py_None || (PyFloat_Check(o) && isnan(PyFloat_AS_DOUBLE(o))))
        return 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(na); i++)
        if (o == PyTuple_GET_ITEM(na, i))
            return 1;
    return 0;
}

/* An object column: a buffer of PyObject pointers (a numpy object array).
 * str as is, missing values as the missing token, anything else through
 * fmt (returns str, or None for missing); fmt's results stay alive in keep. */
static int encode_objects(colbuf *c, PyObject *arr, Py_ssize_t nrows, PyObject *na, PyObject *fmt, PyObject *keep,
                          const char *column)
{
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    int rc = -1;
    ptrmap m = {PyMem_Calloc(64, sizeof(PyObject *)), PyMem_Malloc(64 * sizeof(int32_t)), 64, 0};
    c->codes = PyMem_Malloc((nrows ? (size_t)nrows : 1) * sizeof(int32_t));
    if (!m.key || !m.code || !c->codes) {
        PyErr_NoMemory();
        goto out;
    }
    if (!v.format || strcmp(v.format, "O") != 0 || v.len != nrows * (Py_ssize_t)sizeof(PyObject *)) {
        PyErr_SetString(PyExc_TypeError, "expected an object array of one entry per row");
        goto out;
    }
    PyObject **items = v.buf, *prev = NULL;
    int32_t prev_code = -1;
    for (Py_ssize_t i = 0; i < nrows; i++) {
        PyObject *o = items[i];
        if (o == prev) {
            c->codes[i] = prev_code;
            continue;
        }
        size_t s = ptr_slot(&m, o);
        int32_t code;
        if (m.key[s]) {
            code = m.code[s];
        } else {
            PyObject *str = o;
            if (is_na(o, na)) {
                code = -1;
            } else {
                if (!PyUnicode_Check(o)) {
                    if (!(str = PyObject_CallOneArg(fmt, o)))
                        goto out;
                    int added = PyList_Append(keep, str);
                    Py_DECREF(str); /* keep holds it */
                    if (added < 0)
                        goto out;
                }
                if (str == Py_None) {
                    code = -1;
                } else if (!PyUnicode_Check(str)) {
                    PyErr_SetString(PyExc_TypeError, "the formatter must return str or None");
                    goto out;
                } else {
                    size_t len;
                    const char *u = utf8_of(str, &len, column);
                    if (!u)
                        goto out;
                    if (dict_push(c, u, len)) {
                        PyErr_NoMemory();
                        goto out;
                    }
                    code = (int32_t)(c->ndict - 1);
                }
            }
            if ((m.used + 1) * 2 > m.n) {
                if (ptr_grow(&m)) {
                    PyErr_NoMemory();
                    goto out;
                }
                s = ptr_slot(&m, o);
            }
            m.key[s] = o;
            m.code[s] = code;
            m.used++;
        }
        c->codes[i] = prev_code = code;
        prev = o;
    }
    rc = 0;
out:
    PyMem_Free(m.key);
    PyMem_Free(m.code);
    PyBuffer_Release(&v);
    return rc;
}

static void colbuf_free(colbuf *c)
{
    PyMem_Free(c->dict);
    PyMem_Free(c->lens);
    if (c->has_view)
        PyBuffer_Release(&c->view);
    else
        PyMem_Free(c->codes);
}

/* table_from_columns(names, columns, nrows, missing, source, first_line,
 * na, fmt) -> Table. Each column is (codes, values) or an object array. */
static PyObject *py_table_from_columns(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *names, *columns, *na, *fmt;
    Py_ssize_t nrows;
    const char *missing, *source;
    unsigned int first_line;
    if (!PyArg_ParseTuple(args, "O!O!nssIO!O", &PyList_Type, &names, &PyList_Type, &columns, &nrows, &missing,
                          &source, &first_line, &PyTuple_Type, &na, &fmt))
        return NULL;
    Py_ssize_t ncols = PyList_GET_SIZE(names);
    if (PyList_GET_SIZE(columns) != ncols) {
        PyErr_SetString(PyExc_ValueError, "one column per name");
        return NULL;
    }
    if (ncols == 0)
        return raise_input("the data frame has no columns: give at least one");
    const char **cname = PyMem_Calloc((size_t)ncols, sizeof *cname);
    colbuf *cols = PyMem_Calloc((size_t)ncols, sizeof *cols);
    keps_column_codes *cc = PyMem_Calloc((size_t)ncols, sizeof *cc);
    PyObject *keep = PyList_New(0), *res = NULL;
    keps_table *t = NULL;
    if (!cname || !cols || !cc || !keep) {
        PyErr_NoMemory();
        goto out;
    }
    for (Py_ssize_t j = 0; j < ncols; j++) {
        PyObject *n = PyList_GET_ITEM(names, j);
        if (!PyUnicode_Check(n) || !(cname[j] = PyUnicode_AsUTF8(n)))
            goto out;
    }
    for (Py_ssize_t j = 0; j < ncols; j++) {
        PyObject *item = PyList_GET_ITEM(columns, j);
        int rc = PyTuple_Check(item) && PyTuple_GET_SIZE(item) == 2
                     ? encode_dict(&cols[j], item, nrows, cname[j])
                     : encode_objects(&cols[j], item, nrows, na, fmt, keep, cname[j]);
        if (rc)
            goto out;
        cc[j] = (keps_column_codes){cols[j].dict, cols[j].lens, cols[j].ndict, cols[j].codes};
    }
    keps_error err = {0};
    keps_status st = KEPS_OK;
    if (!(t = keps_table_new((size_t)ncols, cname, missing, source, &err)))
        st = err.code ? err.code : KEPS_ENOMEM;
    else
        st = keps_table_append_columns(t, (size_t)nrows, cc, first_line, &err);
    if (st) {
        raise_keps(st, &err);
        goto out;
    }
    res = table_wrap(t, NULL);
    t = NULL;
out:
    keps_table_free(t);
    for (Py_ssize_t j = 0; cols && j < ncols; j++)
        colbuf_free(&cols[j]);
    PyMem_Free(cname);
    PyMem_Free(cols);
    PyMem_Free(cc);
    Py_XDECREF(keep);
    return res;
}

/* read_csv(path, delimiter, missing, decimal_comma, progress) -> Table. */
static PyObject *py_read_csv(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj, *progress;
    int delim, decimal_comma;
    const char *missing;
    if (!PyArg_ParseTuple(args, "O&CzpO", PyUnicode_FSConverter, &path_obj, &delim, &missing, &decimal_comma,
                          &progress))
        return NULL;
    keps_csv_options opt = {.delimiter = (char)delim, .missing = missing};
    keps_table *t = NULL;
    keps_error err = {0};
    keps_status st;
    progress_begin(progress);
    Py_BEGIN_ALLOW_THREADS
    st = keps_csv_read(PyBytes_AS_STRING(path_obj), &opt, &t, &err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    if (progress_end()) {
        keps_table_free(t);
        return NULL;
    }
    if (st)
        return raise_keps(st, &err);
    t->decimal_comma = decimal_comma;
    return table_wrap(t, NULL);
}

/* ------------------------------------------------------------ hierarchies */

static PyObject *table_arg_check(PyObject *o)
{
    if (!PyObject_TypeCheck(o, &TableType)) {
        PyErr_SetString(PyExc_TypeError, "expected a keps._core.Table");
        return NULL;
    }
    return o;
}

/* hierarchy_load(path, delimiter) -> Hierarchy */
static PyObject *py_hierarchy_load(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *path_obj;
    int delim;
    if (!PyArg_ParseTuple(args, "O&C", PyUnicode_FSConverter, &path_obj, &delim))
        return NULL;
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    keps_status st;
    Py_BEGIN_ALLOW_THREADS
    st = keps_hierarchy_load(PyBytes_AS_STRING(path_obj), (char)delim, &h, &err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_obj);
    if (st)
        return raise_keps(st, &err);
    return hierarchy_wrap(h);
}

/* hierarchy_from_table(Table) -> Hierarchy; validates. The Table is
 * consumed: it must not be used afterwards (its rows now belong to the
 * hierarchy). */
static PyObject *py_hierarchy_from_table(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!table_arg_check(arg))
        return NULL;
    TableObject *o = (TableObject *)arg;
    if (o->owner || !o->t) {
        PyErr_SetString(PyExc_ValueError, "the table belongs to another object");
        return NULL;
    }
    keps_table *t = o->t;
    o->t = NULL; /* taken over, also on failure */
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    keps_status st = keps_hierarchy_from_table(t, &h, &err);
    if (st)
        return raise_keps(st, &err);
    return hierarchy_wrap(h);
}

/* hierarchy_build(Table, column, spec, progress) -> Hierarchy */
static PyObject *py_hierarchy_build(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *tab, *progress;
    Py_ssize_t col;
    const char *spec;
    if (!PyArg_ParseTuple(args, "OnsO", &tab, &col, &spec, &progress) || !table_arg_check(tab) ||
        column_arg((TableObject *)tab, col))
        return NULL;
    keps_hierarchy *h = NULL;
    keps_error err = {0};
    keps_status st;
    progress_begin(progress);
    Py_BEGIN_ALLOW_THREADS
    st = keps_hierarchy_build_text(((TableObject *)tab)->t, (size_t)col, spec, &h, &err);
    Py_END_ALLOW_THREADS
    if (progress_end()) {
        keps_hierarchy_free(h);
        return NULL;
    }
    if (st)
        return raise_keps(st, &err);
    return hierarchy_wrap(h);
}

/* ------------------------------------------------------------ noise */

static keps_rng *rng_for(PyObject *seed)
{
    keps_rng *r;
    if (seed == Py_None) {
        r = keps_rng_new();
    } else {
        unsigned long long s = PyLong_AsUnsignedLongLong(seed);
        if (s == (unsigned long long)-1 && PyErr_Occurred())
            return NULL;
        r = keps_rng_new_seeded((uint64_t)s);
    }
    if (!r) {
        keps_error err = {0};
        keps_error_set(&err, KEPS_EIO, "cannot initialize the random number generator (libsodium)");
        raise_keps(KEPS_EIO, &err);
    }
    return r;
}

static PyObject *info_tuple(const keps_noise_info *i)
{
    return Py_BuildValue("dddd", i->granularity, i->scale, i->epsilon, i->sensitivity);
}

/* laplace_info(scale, sensitivity) -> (granularity, scale, epsilon,
 * sensitivity) or None when out of range. */
static PyObject *py_laplace_info(PyObject *self, PyObject *args)
{
    (void)self;
    double b, d;
    if (!PyArg_ParseTuple(args, "dd", &b, &d))
        return NULL;
    keps_noise_info info;
    if (keps_laplace_info(b, d, &info) != 0)
        Py_RETURN_NONE;
    return info_tuple(&info);
}

/* laplace_calibrate(sensitivity, coords, epsilon) -> the scale whose stated
 * epsilon, grid rounding included, is at most epsilon (NaN: none). */
static PyObject *py_laplace_calibrate(PyObject *self, PyObject *args)
{
    (void)self;
    double d, q, eps;
    if (!PyArg_ParseTuple(args, "ddd", &d, &q, &eps))
        return NULL;
    return PyFloat_FromDouble(keps_laplace_calibrate(d, q, eps));
}

static PyObject *py_geometric_info(PyObject *self, PyObject *args)
{
    (void)self;
    double eps;
    long long d;
    if (!PyArg_ParseTuple(args, "dL", &eps, &d))
        return NULL;
    keps_noise_info info;
    if (keps_geometric_info(eps, (int64_t)d, &info) != 0)
        Py_RETURN_NONE;
    return info_tuple(&info);
}

/* noise(kind, values, out, param, sensitivity, seed): kind 0 = Laplace,
 * float64 buffers, param the scale (sensitivity unused: the scale carries
 * it); kind 1 = geometric, int64 buffers, param epsilon. out[i] = values[i]
 * plus noise, drawn without the GIL. Returns -1, or the index of the first
 * value the mechanism refuses (not finite; magnitude 2^62 or more), where
 * it stopped. */
static PyObject *py_noise(PyObject *self, PyObject *args)
{
    (void)self;
    int kind;
    Py_buffer in, out;
    double param;
    long long d;
    PyObject *seed;
    if (!PyArg_ParseTuple(args, "iy*w*dLO", &kind, &in, &out, &param, &d, &seed))
        return NULL;
    PyObject *res = NULL;
    keps_rng *r = NULL;
    Py_ssize_t w = kind ? (Py_ssize_t)sizeof(int64_t) : (Py_ssize_t)sizeof(double);
    if (in.len != out.len || in.len % w) {
        PyErr_SetString(PyExc_ValueError, "values and out: buffers of one length (float64, or int64 for geometric)");
        goto done;
    }
    if (!(r = rng_for(seed)))
        goto done;
    size_t n = (size_t)(in.len / w), bad = (size_t)-1;
    const int64_t lim = (int64_t)1 << 62;
    Py_BEGIN_ALLOW_THREADS
    for (size_t i = 0; i < n; i++) {
        if (kind == 0) {
            double x = ((const double *)in.buf)[i];
            if (!isfinite(x)) {
                bad = i;
                break;
            }
            ((double *)out.buf)[i] = keps_laplace(r, x, param);
        } else {
            int64_t x = ((const int64_t *)in.buf)[i];
            if (x >= lim || x <= -lim) {
                bad = i;
                break;
            }
            ((int64_t *)out.buf)[i] = keps_geometric_mech(r, x, param, (int64_t)d);
        }
    }
    Py_END_ALLOW_THREADS
    res = PyLong_FromSsize_t(bad == (size_t)-1 ? -1 : (Py_ssize_t)bad);
done:
    keps_rng_free(r);
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return res;
}

/* ------------------------------------------------------------ commands */

/* The command layer (keps/command.h): every CLI command as one library
 * call. Compiled in when the library has it; keps/_commands.py checks
 * _core.HAS_COMMANDS. */
#if defined(__has_include)
#if __has_include("keps/command.h")
#define KEPS_PY_COMMANDS 1
#endif
#endif

#ifdef KEPS_PY_COMMANDS
#include "keps/command.h"

/* What one run hears: messages collected as (kind, text) tuples, the
 * progress callable and the exception it raised. The callbacks run on the
 * calling thread with the GIL released, so they take it. */
typedef struct {
    PyObject *messages; /* list */
    PyObject *progress; /* callable or NULL */
    PyObject *exc, *exc_value, *exc_tb;
    double last;
    const char *what; /* the stage last reported (the library's labels are literals) */
} run_host;

static void host_fetch_error(run_host *h)
{
    if (!h->exc)
        PyErr_Fetch(&h->exc, &h->exc_value, &h->exc_tb);
    else
        PyErr_Clear();
}

static void host_message(void *ud, keps_msg_kind kind, const char *text)
{
    run_host *h = ud;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *t = Py_BuildValue("(is)", (int)kind, text);
    if (!t || PyList_Append(h->messages, t) < 0)
        host_fetch_error(h);
    Py_XDECREF(t);
    PyGILState_Release(g);
}

/* Python spells a parameter as its keyword: dashes become underscores,
 * and a Python keyword ("from") takes a trailing underscore. */
static const char *host_spell(void *ud, const char *name, char *buf, size_t len)
{
    (void)ud;
    if (!len)
        return buf;
    size_t i = 0;
    for (; name[i] && i + 1 < len; i++)
        buf[i] = name[i] == '-' ? '_' : name[i];
    buf[i] = 0;
    static const char *const kw[] = {"from", "in", "is", "as", "if", "or", "and", "not", "for", "with",
                                     "global", "lambda", "class", "def", "return", "import", "pass"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (!strcmp(buf, kw[k]) && i + 1 < len) {
            buf[i] = '_';
            buf[i + 1] = 0;
            break;
        }
    return buf;
}

static int host_progress(void *ud, const char *what, double done, double total)
{
    run_host *h = ud;
    if (!h->progress || h->exc)
        return h->exc != NULL;
    /* at most ten calls a second, but a new stage's first report always
     * reaches the callable (it can then cancel that stage from inside) */
    double t = now_s();
    int fresh = !h->what || strcmp(h->what, what) != 0;
    if (!fresh && done < total && t - h->last < 0.1)
        return 0;
    h->last = t;
    h->what = what;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *r = PyObject_CallFunction(h->progress, "sdd", what, done, total);
    if (!r || PyErr_CheckSignals() < 0)
        host_fetch_error(h);
    Py_XDECREF(r);
    int cancel = h->exc != NULL;
    PyGILState_Release(g);
    return cancel;
}

/* Flags the value tok (the run's missing token) as each column's missing
 * value, as the CSV reader does on reading the CLI's output file back: a
 * release holds the input's missing cells as plain text (its own token is
 * "\x01", none), and a DataFrame should get NaN there. */
static void mark_missing(keps_table *t, const char *tok)
{
    for (size_t j = 0; j < t->ncols; j++) {
        keps_column *c = &t->cols[j];
        if (c->missing != KEPS_NONE)
            continue;
        uint32_t m = 0; /* a scan: such a table's value index may not be built */
        while (m < c->nvalues && strcmp(c->values[m], tok))
            m++;
        if (m == c->nvalues)
            continue;
        c->missing = m;
        c->missing_count = 0;
        for (size_t i = 0; i < t->nrows; i++)
            c->missing_count += c->codes[i] == m;
    }
}

/* A table of the result as a _core.Table (taken from the result: the
 * result's pointers to it are cleared; tok marked missing), or None. */
static PyObject *take_table(keps_result *r, keps_table *t, const char *tok)
{
    if (!t)
        Py_RETURN_NONE;
    mark_missing(t, tok);
    if (r->release == t)
        r->release = NULL;
    for (size_t i = 0; i < r->noutputs; i++)
        if (r->outputs[i].table == t)
            r->outputs[i].table = NULL;
    return table_wrap(t, NULL);
}

static PyObject *str_or_none(const char *s, size_t len)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "replace");
}

static PyObject *order_bytes(const uint32_t *order, size_t n)
{
    if (!order)
        Py_RETURN_NONE;
    return PyBytes_FromStringAndSize((const char *)order, (Py_ssize_t)(n * sizeof *order));
}

/* The result as a dict: finding, report, summary, printed, release (Table
 * or None), order (bytes of uint32 or None), outputs [(param, Table or
 * None, order, text or None)]. */
static PyObject *result_dict(keps_result *r, const char *tok)
{
    PyObject *outs = PyList_New(0);
    for (size_t i = 0; outs && i < r->noutputs; i++) {
        keps_output *o = &r->outputs[i];
        if (o->table == r->release && r->release)
            continue; /* the release, below */
        size_t n = o->table ? o->table->nrows : 0;
        PyObject *order = order_bytes(o->order, n);
        PyObject *text = str_or_none(o->text, o->len);
        PyObject *tbl = take_table(r, o->table, tok);
        PyObject *t = order && text && tbl ? Py_BuildValue("(sOOO)", o->param, tbl, order, text) : NULL;
        Py_XDECREF(order);
        Py_XDECREF(text);
        Py_XDECREF(tbl);
        if (!t || PyList_Append(outs, t) < 0)
            Py_CLEAR(outs);
        Py_XDECREF(t);
    }
    if (!outs)
        return NULL;
    size_t nrel = r->release ? r->release->nrows : 0;
    PyObject *order = order_bytes(r->order, nrel);
    PyObject *rel = take_table(r, r->release, tok);
    PyObject *report = str_or_none(r->report, r->report ? strlen(r->report) : 0);
    PyObject *summary = str_or_none(r->summary, r->summary ? strlen(r->summary) : 0);
    PyObject *printed = str_or_none(r->printed, r->printed ? strlen(r->printed) : 0);
    PyObject *d = order && rel && report && summary && printed
                      ? Py_BuildValue("{s:O,s:O,s:O,s:O,s:O,s:O,s:O}", "finding", r->finding ? Py_True : Py_False,
                                      "report", report, "summary", summary, "printed", printed, "release", rel,
                                      "order", order, "outputs", outs)
                      : NULL;
    Py_XDECREF(order);
    Py_XDECREF(rel);
    Py_XDECREF(report);
    Py_XDECREF(summary);
    Py_XDECREF(printed);
    Py_DECREF(outs);
    return d;
}

/* Fills a with params [(name, value str)], tables [(name, Table)] and
 * hierarchies [(column, Table in ARX's layout)]. */
static int fill_args(keps_args *a, PyObject *params, PyObject *tables, PyObject *hierarchies)
{
    Py_ssize_t n = PyList_Size(params);
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *name, *value;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(params, i), "ss", &name, &value))
            return -1;
        if (keps_args_add(a, name, value, NULL) != KEPS_OK) {
            PyErr_NoMemory();
            return -1;
        }
    }
    n = PyList_Size(tables);
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *name;
        PyObject *tab;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(tables, i), "sO", &name, &tab) || !table_arg_check(tab))
            return -1;
        if (keps_args_table(a, name, ((TableObject *)tab)->t) != KEPS_OK) {
            PyErr_NoMemory();
            return -1;
        }
    }
    n = PyList_Size(hierarchies);
    for (Py_ssize_t i = 0; i < n; i++) {
        const char *column;
        PyObject *tab;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(hierarchies, i), "sO", &column, &tab) || !table_arg_check(tab))
            return -1;
        if (keps_args_hierarchy(a, column, ((TableObject *)tab)->t) != KEPS_OK) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* Raises the status's exception carrying the whole message (not cut at
 * keps_error's 1024 bytes), with .messages (what the command said before
 * failing: [(kind, text)]) and .usage (a usage error). */
static void raise_run(keps_status st, const char *msg, PyObject *messages, int usage)
{
    PyObject *type = st == KEPS_EINPUT ? exc_input : st == KEPS_EJOB || st == KEPS_ECANCEL ? exc_job : exc_resource;
    PyObject *e = PyObject_CallFunction(type, "si", msg[0] ? msg : "keps failed", (int)st);
    if (!e)
        return;
    if (PyObject_SetAttrString(e, "messages", messages) == 0 &&
        PyObject_SetAttrString(e, "usage", usage ? Py_True : Py_False) == 0)
        PyErr_SetObject(type, e);
    Py_DECREF(e);
}

/* run(command, params, tables, hierarchies, progress, quiet, missing) ->
 * (result dict, messages); missing: the run's missing token.
 * Errors raise the status's exception carrying the whole message, with
 * .messages (what the command said before failing) and .usage set. */
static PyObject *py_run(PyObject *self, PyObject *args)
{
    (void)self;
    const char *name;
    PyObject *params, *tables, *hierarchies, *progress;
    int quiet;
    const char *tok;
    if (!PyArg_ParseTuple(args, "sO!O!O!Ops", &name, &PyList_Type, &params, &PyList_Type, &tables, &PyList_Type,
                          &hierarchies, &progress, &quiet, &tok))
        return NULL;
    run_host h = {.messages = PyList_New(0), .progress = progress != Py_None ? progress : NULL};
    keps_args *a = keps_args_new();
    PyObject *res = NULL;
    if (!h.messages || !a) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto done;
    }
    if (fill_args(a, params, tables, hierarchies))
        goto done;
    keps_host host = {.message = host_message, .spell = host_spell, .progress = host_progress, .quiet = quiet,
                      .ud = &h};
    keps_result r;
    keps_error err = {0};
    keps_status st;
    Py_BEGIN_ALLOW_THREADS
    st = keps_run(name, a, &host, &r, &err);
    Py_END_ALLOW_THREADS
    if (h.exc) { /* the progress callable (or a message) raised: that comes out */
        PyErr_Restore(h.exc, h.exc_value, h.exc_tb);
        h.exc = h.exc_value = h.exc_tb = NULL;
    } else if (st != KEPS_OK) {
        raise_run(st, r.error ? r.error : err.msg, h.messages, r.usage);
    } else {
        PyObject *d = result_dict(&r, tok);
        if (d) {
            res = Py_BuildValue("(OO)", d, h.messages);
            Py_DECREF(d);
        }
    }
    keps_result_free(&r);
done:
    keps_args_free(a);
    Py_XDECREF(h.messages);
    Py_XDECREF(h.exc);
    Py_XDECREF(h.exc_value);
    Py_XDECREF(h.exc_tb);
    return res;
}

static PyObject *opt_str(const char *s)
{
    if (!s)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

/* catalog() -> [{name, summary, usage, description, example, params:
 * [(name, short letter or "", metavar or None, flags, help, example)]}] */
static PyObject *py_catalog(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    const keps_command_info *const *list;
    size_t n = keps_commands(&list);
    PyObject *out = PyList_New(0);
    for (size_t i = 0; out && i < n; i++) {
        const keps_command_info *c = list[i];
        PyObject *ps = PyList_New(0);
        for (size_t j = 0; ps && j < c->nparams; j++) {
            const keps_param_info *p = &c->params[j];
            char sc[2] = {p->shortc, 0};
            PyObject *mv = opt_str(p->metavar), *help = opt_str(p->help), *ex = opt_str(p->example);
            PyObject *t = mv && help && ex ? Py_BuildValue("(ssOIOO)", p->name, sc, mv, p->flags, help, ex) : NULL;
            Py_XDECREF(mv);
            Py_XDECREF(help);
            Py_XDECREF(ex);
            if (!t || PyList_Append(ps, t) < 0)
                Py_CLEAR(ps);
            Py_XDECREF(t);
        }
        PyObject *fields[5] = {opt_str(c->summary), opt_str(c->usage), opt_str(c->description), opt_str(c->example),
                               NULL};
        PyObject *d = ps && fields[0] && fields[1] && fields[2] && fields[3]
                          ? Py_BuildValue("{s:s,s:O,s:O,s:O,s:O,s:O}", "name", c->name, "summary", fields[0],
                                          "usage", fields[1], "description", fields[2], "example", fields[3],
                                          "params", ps)
                          : NULL;
        for (int k = 0; k < 4; k++)
            Py_XDECREF(fields[k]);
        Py_XDECREF(ps);
        if (!d || PyList_Append(out, d) < 0)
            Py_CLEAR(out);
        Py_XDECREF(d);
    }
    return out;
}
#endif /* KEPS_PY_COMMANDS */

/* ------------------------------------------------------------ module */

static PyObject *py_version(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    return PyUnicode_FromString(keps_version());
}

/* _init(InputError, JobError, ResourceError): the exception classes. */
static PyObject *py_init(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *a, *b, *c;
    if (!PyArg_ParseTuple(args, "OOO", &a, &b, &c))
        return NULL;
    Py_XSETREF(exc_input, Py_NewRef(a));
    Py_XSETREF(exc_job, Py_NewRef(b));
    Py_XSETREF(exc_resource, Py_NewRef(c));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"_init", py_init, METH_VARARGS, NULL},
    {"version", py_version, METH_NOARGS, "the libkeps version string"},
    {"table_from_columns", py_table_from_columns, METH_VARARGS, NULL},
    {"read_csv", py_read_csv, METH_VARARGS, NULL},
    {"hierarchy_load", py_hierarchy_load, METH_VARARGS, NULL},
    {"hierarchy_from_table", py_hierarchy_from_table, METH_O, NULL},
    {"hierarchy_build", py_hierarchy_build, METH_VARARGS, NULL},
    {"laplace_info", py_laplace_info, METH_VARARGS, NULL},
    {"laplace_calibrate", py_laplace_calibrate, METH_VARARGS, NULL},
    {"geometric_info", py_geometric_info, METH_VARARGS, NULL},
    {"noise", py_noise, METH_VARARGS, NULL},
#ifdef KEPS_PY_COMMANDS
    {"run", py_run, METH_VARARGS, NULL},
    {"catalog", py_catalog, METH_NOARGS, NULL},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "keps._core", "libkeps bindings (private; use the keps package)", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&TableType) < 0 || PyType_Ready(&HierarchyType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&TableType);
    Py_INCREF(&HierarchyType);
    if (PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0 ||
        PyModule_AddObject(m, "Hierarchy", (PyObject *)&HierarchyType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
#ifdef KEPS_PY_COMMANDS
    int has_commands = 1;
#else
    int has_commands = 0;
#endif
    if (PyModule_AddIntConstant(m, "HAS_COMMANDS", has_commands) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    /* One hook for the process; it reaches the calling thread's callable. */
    keps_progress_hook(progress_hook, NULL);
    return m;
}
