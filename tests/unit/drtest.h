/* Assertions for dynred's unit tests.  A test program prints one line per
 * check with the measured value and its reference, and exits non-zero when
 * any check failed (the harness counts the program as one test). */
#ifndef DRTEST_H
#define DRTEST_H
#include <dynred/dynred.h>
#include <math.h>

static int drtest_failures = 0, drtest_checks = 0;

/* |got - ref| <= rtol * |ref| + atol */
#define DRTEST_CLOSE(got, ref, rtol, atol, ...)                                                  \
  do {                                                                                           \
    double _g = (double)(got), _r = (double)(ref), _e = fabs(_g - _r);                           \
    int    _ok = isfinite(_g) && _e <= (rtol) * fabs(_r) + (atol);                               \
    char   _what[1024];                                                                           \
    snprintf(_what, sizeof(_what), __VA_ARGS__);                                                 \
    drtest_checks++;                                                                             \
    if (!_ok) drtest_failures++;                                                                 \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s: got %.12g ref %.12g (err %.3g)\n", _ok ? "ok  " : "FAIL", _what, _g, _r, _e)); \
  } while (0)

#define DRTEST_TRUE(cond, ...)                                                                   \
  do {                                                                                           \
    char _what[1024];                                                                             \
    snprintf(_what, sizeof(_what), __VA_ARGS__);                                                 \
    drtest_checks++;                                                                             \
    if (!(cond)) drtest_failures++;                                                              \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s\n", (cond) ? "ok  " : "FAIL", _what));         \
  } while (0)

/* End of main(): summary and exit code. */
#define DRTEST_END()                                                                             \
  do {                                                                                           \
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%d checks, %d failed\n", drtest_checks, drtest_failures)); \
    PetscCall(DRFinalize());                                                                     \
    return drtest_failures ? 1 : 0;                                                              \
  } while (0)
/* The fields of a component through its accessors (which cannot fail). */
typedef struct {
  PetscInt         n, nnodes, ncells, nsets;
  const DRLabel   *labels;
  const PetscInt  *node_ids, *cells;
  const PetscReal *xyz;
  DRCellType       celltype;
  Mat              K, M, D;
  MPI_Comm         comm;
} CompView;

static inline CompView CV(DRComponent c)
{
  CompView v;
  (void)DRComponentGetLabels(c, &v.n, &v.labels);
  (void)DRComponentGetGeometry(c, &v.nnodes, &v.node_ids, &v.xyz);
  (void)DRComponentGetCells(c, &v.celltype, &v.ncells, &v.cells);
  (void)DRComponentGetNodeSets(c, &v.nsets, NULL);
  (void)DRComponentGetOperators(c, &v.K, &v.M, &v.D);
  (void)DRComponentGetComm(c, &v.comm);
  return v;
}

#endif
