/* The one path resolver: a path read from a file is relative to that file's
 * directory. */
#include <dynred/sys.h>
#include <string.h>

PetscErrorCode DRPathResolve(const char *base_file, const char *path, char *out, size_t len)
{
  const char *slash = base_file ? strrchr(base_file, '/') : NULL;

  PetscFunctionBeginUser;
  /* Empty and absolute paths stay; so does every path when the base is not
   * a file ("<embedded demo>") or has no directory part. */
  if (!path[0] || path[0] == '/' || !base_file || base_file[0] == '<' || !slash) PetscCall(PetscStrncpy(out, path, len));
  else PetscCall(PetscSNPrintf(out, len, "%.*s/%s", (int)(slash - base_file), base_file, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}
