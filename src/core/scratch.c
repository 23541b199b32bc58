/* Scratch files: memory a batch job can put aside on disk while it is not
 * needed (a waiting CMS component's basis, the root's interface mass;
 * include/dynred/sys.h).  Each is made by mkstemp in the given directory
 * ("" : $TMPDIR, else /tmp) and unlinked at once, so nothing is left behind
 * when the job ends or is killed; the descriptor holds the data.  Written
 * and read whole from offset 0 (pwrite/pread, looped over short transfers);
 * the page cache keeps it if the node has the memory, the kernel may drop
 * it to disk if not: either way it is no longer the process' resident set. */
#include <dynred/sys.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ScratchDir(const char dir[])
{
  const char *t = getenv("TMPDIR");

  if (dir && dir[0]) return dir;
  return t && t[0] ? t : "/tmp";
}

PetscErrorCode DRScratchOpen(const char dir[], const char what[], int *fd)
{
  char tmp[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s/dynred-scratch-XXXXXX", ScratchDir(dir)));
  *fd = mkstemp(tmp);
  PetscCheck(*fd >= 0, PETSC_COMM_SELF, DR_ERR_INPUT, "%s: cannot create a scratch file in %s (%s): expected a writable directory", what, ScratchDir(dir), strerror(errno));
  (void)unlink(tmp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* bytes from buf to the file (write) or back, from offset 0, looped over
 * short transfers */
static PetscErrorCode Transfer(int fd, char *p, size_t bytes, PetscBool write, const char what[])
{
  size_t done = 0;

  PetscFunctionBeginUser;
  while (done < bytes) {
    ssize_t k = write ? pwrite(fd, p + done, bytes - done, (off_t)done) : pread(fd, p + done, bytes - done, (off_t)done);
    if (k < 0 && errno == EINTR) continue;
    if (k > 0) {
      done += (size_t)k;
      continue;
    }
    if (write) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "%s: writing %.0f MiB to its scratch file failed after %.0f MiB (%s): expected room in the scratch directory", what, bytes / 1048576.0, done / 1048576.0, k < 0 ? strerror(errno) : "no progress");
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: reading %.0f MiB back from its scratch file failed after %.0f MiB (%s)", what, bytes / 1048576.0, done / 1048576.0, k < 0 ? strerror(errno) : "end of file");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRScratchWrite(int fd, const void *buf, size_t bytes, const char what[])
{
  PetscFunctionBeginUser;
  PetscCall(Transfer(fd, (char *)buf, bytes, PETSC_TRUE, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRScratchRead(int fd, void *buf, size_t bytes, const char what[])
{
  PetscFunctionBeginUser;
  PetscCall(Transfer(fd, (char *)buf, bytes, PETSC_FALSE, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode DRScratchClose(int *fd)
{
  PetscFunctionBeginUser;
  if (*fd >= 0) (void)close(*fd);
  *fd = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}
