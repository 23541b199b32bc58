# dynred build.  PETSc, SLEPc, HDF5 (the MPI flavour PETSc was built with) and
# libyaml are found with pkg-config, or through PETSC_DIR/PETSC_ARCH and
# SLEPC_DIR when those are set (cluster installs).
#
#   make            library, bin/dynred and the test programs
#   make demo       install what is missing, build, run the embedded default job
#   make check      install what is missing, build, run the test suite (tests/tests.list, 10 min)
#   make check-heavy  the heavy cases (bench/checks.list); CI runs them after check
#   make INDEX64=1  the same build against 64-bit-index PETSc/SLEPc (build64/, bin64/)
#   make check64    install those, build them, run every test against bin64/dynred
#   make check-slurm  as root: the job scripts on a one-node Slurm on localhost
#   make check-sanitize  every test under ASan + UBSan, then the leak pass (long)
#   make bench      benchmarks (long; never part of check)
#   make install PREFIX=/opt/dynred [DESTDIR=...]   bin/, share/, man page, modulefile
#   make uninstall PREFIX=/opt/dynred [DESTDIR=...]

CC      ?= mpicc
ifeq ($(origin CC),default)
CC      := mpicc
endif
OPT     ?= -O2 -g
CFLAGS  += $(OPT) -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Wno-unused-parameter -Iinclude

# 64-bit indices: `make INDEX64=1` builds against Debian's PETSc/SLEPc built
# with 64-bit PetscInt (libpetsc64-real3.18-dev, libslepc64-real3.18-dev:
# scripts/install-deps.sh --index64) into build64/ and bin64/dynred, leaving
# the normal build in build/ and bin/ alone; `make check64` installs them,
# builds and runs the whole suite against that build.  Needed when a factor
# (MUMPS) or a distributed matrix holds more than about 2^31 nonzeros (README).
INDEX64 ?=
ifneq ($(INDEX64),)
  PETSC64_PC ?= /usr/lib/petsc64/lib/pkgconfig
  SLEPC64_PC ?= /usr/lib/slepc64/lib/pkgconfig
  export PKG_CONFIG_PATH := $(SLEPC64_PC):$(PETSC64_PC):$(PKG_CONFIG_PATH)
  PETSC_PKGS := slepc64 petsc64
  B       ?= build64$(if $(SANITIZE),-san)
  BINDIR  ?= bin64$(if $(SANITIZE),-san)
  export DYNRED := $(CURDIR)/$(BINDIR)/dynred
  export TBIN   := $(CURDIR)/$(B)/tests
else
  PETSC_PKGS := slepc petsc
endif

ifneq ($(PETSC_DIR),)
  PETSC_PC := $(PETSC_DIR)/$(PETSC_ARCH)/lib/pkgconfig
  SLEPC_PC := $(SLEPC_DIR)/$(PETSC_ARCH)/lib/pkgconfig
  export PKG_CONFIG_PATH := $(SLEPC_PC):$(PETSC_PC):$(SLEPC_DIR)/lib/pkgconfig:$(PKG_CONFIG_PATH)
endif
HDF5_PC := $(firstword $(foreach p,hdf5-openmpi hdf5-mpich hdf5-mpi hdf5,$(if $(shell pkg-config --exists $(p) 2>/dev/null && echo y),$(p))))
PKGS    := $(PETSC_PKGS) $(HDF5_PC) yaml-0.1
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# ScaLAPACK (DRDenseEigenPar): the one PETSc was built with (MUMPS needs it),
# so its MPI matches; without it the dense problems stay on one rank.
SCALAPACK_LIBS := $(filter -lscalapack%,$(shell pkg-config --libs --static $(PETSC_PKGS) 2>/dev/null))
ifeq ($(SCALAPACK_LIBS),)
  CFLAGS += -DDR_NO_SCALAPACK
endif
CFLAGS  += $(PKG_CFLAGS)
LDLIBS  += $(PKG_LIBS) $(SCALAPACK_LIBS) -lslicot -llapack -lblas -lm
# The MPI compiler wrapper is optional: PETSc's pkg-config already carries MPI.
ifeq ($(shell command -v $(CC) 2>/dev/null),)
  CC := cc
endif

# Sanitizer build: `make SANITIZE=address,undefined` compiles everything with
# -fsanitize=... into build-san/ and bin-san/dynred (a normal build in build/
# and bin/ is left alone); `make SANITIZE=address,undefined check` runs the
# suite against it (tests/run_tests.sh honours DYNRED and TBIN) without leak
# detection; scripts/sanitize-check.sh runs tests/sanitize.list (a subset
# that runs every file of src/; CI) or, as `make check-sanitize`, the whole
# suite, and then a leak pass with the suppressions of scripts/lsan.supp
# (Open MPI's init/finalize).  A sanitizer report exits with
# DR_SANITIZER_EXIT (23), which the expected-failure checks reject.
SANITIZE ?=
ifneq ($(SANITIZE),)
  B       ?= build-san
  BINDIR  ?= bin-san
  SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=undefined
  CFLAGS  += $(SANFLAGS)
  LDFLAGS += $(SANFLAGS)
  export DYNRED := $(CURDIR)/$(BINDIR)/dynred
  export TBIN   := $(CURDIR)/$(B)/tests
  # `make SANITIZE=... check`: ASan + UBSan on the suite, leaks off (the leak
  # pass with its suppressions is in scripts/sanitize-check.sh)
  DR_SANITIZER_EXIT ?= 23
  ASAN_OPTIONS  ?= detect_leaks=0:exitcode=$(DR_SANITIZER_EXIT)
  UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1:exitcode=$(DR_SANITIZER_EXIT)
  export ASAN_OPTIONS UBSAN_OPTIONS DR_SANITIZER_EXIT
endif
BINDIR  ?= bin

LIBSRC  := $(sort $(wildcard src/core/*.c src/model/*.c src/eigen/*.c src/ode/*.c src/reduce/*.c src/couple/*.c src/verify/*.c src/gmp/*.c src/ga/*.c src/ss/*.c src/sysred/*.c src/pmor/*.c))
APPSRC  := $(sort $(wildcard src/app/*.c))
TESTSRC := $(sort $(wildcard tests/unit/*.c))
B       ?= build
LIBOBJ  := $(LIBSRC:%.c=$(B)/%.o)
APPOBJ  := $(APPSRC:%.c=$(B)/%.o)
TESTBIN := $(TESTSRC:tests/unit/%.c=$(B)/tests/%)
LIB     := $(B)/libdynred.a
BIN     := $(BINDIR)/dynred

all: $(BIN) $(TESTBIN)

# `dynred -version` names the build's commit: $(GEN)/dynred_build.h holds
# `git describe` of this tree (nothing outside a git checkout, e.g. a release
# tarball: DYNRED_VERSION of include/dynred/sys.h alone).  The header is
# rewritten only when the description changes, so only main.c recompiles.
GEN     := $(B)/gen
CFLAGS  += -I$(GEN)
DR_GIT   = $(if $(filter $(CURDIR),$(shell git -C '$(CURDIR)' rev-parse --show-toplevel 2>/dev/null)),$(shell git -C '$(CURDIR)' describe --always --dirty 2>/dev/null))
$(GEN)/dynred_build.h: FORCE
	@mkdir -p $(GEN)
	@printf '#define DYNRED_BUILD "%s"\n' '$(if $(DR_GIT), (git $(DR_GIT)))' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
$(B)/src/app/main.o: $(GEN)/dynred_build.h

$(B)/%.o: %.c $(wildcard include/dynred/*.h) $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS) -c $< -o $@

$(LIB): $(LIBOBJ)
	@mkdir -p $(dir $@)
	@rm -f $@ && ar rcs $@ $^

$(BIN): $(APPOBJ) $(LIB)
	@mkdir -p $(BINDIR)
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS) -o $@ $(APPOBJ) $(LIB) $(LDFLAGS) $(LDLIBS)

$(B)/tests/%: tests/unit/%.c $(LIB) $(wildcard include/dynred/*.h)
	@mkdir -p $(B)/tests
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS) -Isrc -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

deps:
	@bash scripts/install-deps.sh

# The targets that build before they run (the README's two commands among
# them) build on every core unless make was given its own -j: a fresh clone's
# build is a minute on two cores, twice that on one.
BUILDJ := $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))

# The README's two commands.  Both install what is missing first.
demo: deps
	@$(MAKE) --no-print-directory $(BUILDJ) all
	@bash scripts/demo.sh

check: deps
	@$(MAKE) --no-print-directory $(BUILDJ) all
	@bash tests/run_tests.sh $(TESTS)

# The whole suite against the 64-bit-index build (build64/, bin64/; not part
# of check: it builds everything a second time).
check64:
	@bash scripts/install-deps.sh --index64
	@$(MAKE) --no-print-directory $(BUILDJ) INDEX64=1 all
	@$(MAKE) --no-print-directory INDEX64=1 check-built

# the suite against an already built tree (DYNRED, TBIN as exported above)
check-built:
	@bash tests/run_tests.sh $(TESTS)

# The heavy cases (bench/checks.list: larger models, longer runs, the same
# harness and the same kind of assertions as the suite), kept out of
# `make check` so that it stays within 10 minutes; CI runs both.
check-heavy: deps
	@$(MAKE) --no-print-directory $(BUILDJ) all
	@TESTS_FILE=bench/checks.list bash tests/run_tests.sh $(TESTS)

# The Slurm test (tests/slurm/run.sh, not part of check: it starts daemons
# and takes minutes): as root, a private one-node Slurm cluster on
# 127.0.0.1 runs jobs/slurm_modal.sh, jobs/slurm_cms.sh and a requeued
# jobs/slurm_gmp.sh and checks their results; installs slurm-wlm when
# missing (scripts/install-deps.sh --slurm).  Exit 77: skipped (not root,
# Slurm cannot start), the reason on one line.
check-slurm: deps
	@$(MAKE) --no-print-directory $(BUILDJ) all
	@bash tests/slurm/run.sh

# Every test under ASan + UBSan (build-san/, bin-san/), then the leak pass;
# CI runs the subset tests/sanitize.list instead (scripts/sanitize-check.sh
# without arguments).  About 25 minutes on 2 cores.
check-sanitize: deps
	@bash scripts/sanitize-check.sh --all

bench: deps
	@$(MAKE) --no-print-directory $(BUILDJ) all
	@bash bench/run_all.sh

clean:
	rm -rf build bin build-san bin-san build64 bin64 build64-san bin64-san build-cov bin-cov

# Installed like other HPC software: PREFIX/bin/{dynred,dynred-plot},
# PREFIX/share/dynred (the example job files in the source tree's layout, so
# their relative paths and the commands in their comments work from a copy
# of it), the dynred(1) man page made from `dynred help` of the installed
# binary (scripts/mkman.sh), and an environment-modules modulefile
# PREFIX/share/modulefiles/dynred/VERSION.  DESTDIR stages it for a package.
# INSTALL_BIN installs another build of the binary (the tests install the
# one under test).  The binary reads nothing from the source tree.
PREFIX      ?= /usr/local
INSTALL_BIN ?= $(BIN)
VERSION     := $(shell sed -n 's/^\#define DYNRED_VERSION "\(.*\)"$$/\1/p' include/dynred/sys.h)
IDIR        := $(DESTDIR)$(PREFIX)
SHARE_FILES := $(wildcard configs/*.yaml) bench/ss/frame_cms.yaml tests/data/cms/beam_free.yaml
SHARE_TOOLS := scripts/ccx_cylinder.py scripts/ga_plot.py scripts/pmor_plot.py

install: $(INSTALL_BIN)
	@echo "  INSTALL $(IDIR)"
	@install -d '$(IDIR)/bin' '$(IDIR)/share/dynred' '$(IDIR)/share/man/man1' '$(IDIR)/share/modulefiles/dynred'
	@install -m 755 '$(INSTALL_BIN)' '$(IDIR)/bin/dynred'
	@sed '1s|^#!.*|#!/usr/bin/python3|' scripts/dynred_plot.py > '$(IDIR)/bin/dynred-plot'
	@chmod 755 '$(IDIR)/bin/dynred-plot'
	@for f in $(SHARE_FILES); do install -D -m 644 $$f '$(IDIR)/share/dynred/'$$f || exit 1; done
	@for f in $(SHARE_TOOLS); do install -D -m 755 $$f '$(IDIR)/share/dynred/'$$f || exit 1; done
	@bash scripts/mkman.sh '$(IDIR)/bin/dynred' '$(PREFIX)/share/dynred' > '$(IDIR)/share/man/man1/dynred.1.tmp'
	@mv -f '$(IDIR)/share/man/man1/dynred.1.tmp' '$(IDIR)/share/man/man1/dynred.1'
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' scripts/modulefile.in > '$(IDIR)/share/modulefiles/dynred/$(VERSION)'
	@chmod 644 '$(IDIR)/share/modulefiles/dynred/$(VERSION)' '$(IDIR)/share/man/man1/dynred.1'

uninstall:
	@echo "  UNINSTALL $(IDIR)"
	@rm -f '$(IDIR)/bin/dynred' '$(IDIR)/bin/dynred-plot' '$(IDIR)/share/man/man1/dynred.1' '$(IDIR)/share/modulefiles/dynred/$(VERSION)'
	@rm -rf '$(IDIR)/share/dynred'
	@rmdir '$(IDIR)/share/modulefiles/dynred' 2>/dev/null || true

.PHONY: all deps demo check check64 check-built check-heavy check-slurm check-sanitize bench clean install uninstall FORCE
.SECONDARY:
