# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
# flashfs-tools — top-level build.
#
# Layers, bottom to top; a folder includes and links only folders to its
# left (`make layers` checks it; folders on one layer, joined by commas,
# may not use each other):
#
#   common → compress → tar → tree → squashfs,yaffs2,ubi → image → mtd → fuse,bench,extract,diff → mkfs,flashfs
#
# Every folder compiles all of its *.c files except *_main.c into
# build/lib/libff_<folder>.a.  Its module.mk names the folders it uses
# (<folder>_USES), the pkg-config packages it needs (<folder>_PKGS) and any
# other link flags (<folder>_LDLIBS).  A program (PROGRAMS += name,
# name_MAIN := folder/file_main.c, name_LINK := folders) links its main's
# folder, the folders it names, and what those use, in layer order, with
# their packages: nothing else, so mkfs.squashfs never needs libfuse3 or
# libmtd.
#
#   make              build programs into build/bin/
#   make check        install deps, build, run every test (prove summary)
#   make asan check   the same under AddressSanitizer + UBSan (build/asan/)
#   make demo         install deps, build, run the main job on the bundled rootfs
#   make layers       check includes and link lists against the layer order,
#                     and that the commands, services and mtd/ name no format
#   make install      programs, man pages, libflashfs (.so and .a), its headers
#                     and flashfs.pc under $(DESTDIR)$(PREFIX); `make uninstall`
#                     removes them again; mount.fuse.flashfs goes to
#                     $(SBINDIR), bash completion to bash-completion's folder,
#                     the JSON schemas to $(DATADIR)/flashfs-tools/schemas
#   make dist         flashfs-tools-VERSION.tar.xz of HEAD, reproducible;
#                     make check-dist builds and checks it unpacked
#   make LZO=0        without liblzo2 (GPL): a pure LGPL libflashfs that
#                     refuses LZO by name; make check-nolzo tests that build
#
# libflashfs (docs/library.md) is the folders below the programs that its
# public API (include/flashfs/*.h) needs, LIBFF_MODULES: a static
# build/lib/libflashfs.a of the objects in build/obj, and a shared
# build/lib/libflashfs.so.VERSION of the same sources compiled again with
# -fPIC -fvisibility=hidden into build/pic, exporting only the symbols
# libflashfs.map names.  The programs link libflashfs.a with the flags
# `pkg-config --static --libs flashfs` gives, plus their own folders above it.

LAYERS   := common compress tar tree squashfs,yaffs2,ubi,ubifs,cramfs,romfs,erofs,squashfs_legacy,jffs2 image mtd fuse,bench,extract,diff mkfs,flashfs
comma    := ,
MODULES  := $(subst $(comma), ,$(LAYERS))
BUILD    ?= build
CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
LIBDIR   ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SBINDIR  ?= $(PREFIX)/sbin
DATADIR  ?= $(PREFIX)/share
MANDIR   ?= $(DATADIR)/man
# bash-completion's folder for this PREFIX (pkg-config, when bash-completion
# is installed), else the folder it uses under DATADIR.
BASHCOMPDIR ?= $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) \
                 --variable=completionsdir bash-completion 2>/dev/null),$(DATADIR)/bash-completion/completions)
SCHEMADIR ?= $(DATADIR)/flashfs-tools/schemas

ifneq ($(filter asan,$(MAKECMDGOALS)),)
BUILD    := build/asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif

# `make check` and `make demo` install the packages (scripts/install-deps)
# while this file is parsed, before the pkg-config lookups below: on a bare
# machine those would otherwise run before the -dev packages exist and the
# first build would compile without their flags (issue 15).  Top-level make
# only, and not under -n.
ifneq ($(filter check demo,$(MAKECMDGOALS)),)
ifeq ($(MAKELEVEL)$(findstring n,$(firstword -$(MAKEFLAGS))),0)
$(info scripts/install-deps)
DEPS_OUT := $(shell scripts/install-deps >&2)
ifneq ($(.SHELLSTATUS),0)
$(error scripts/install-deps failed (exit $(.SHELLSTATUS)); run it as root)
endif
endif
endif

OPT      ?= -O2 -g
CFLAGS   ?= $(OPT)
LDFLAGS  ?=
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

PROGRAMS :=
MANPAGES :=
-include $(wildcard $(addsuffix /module.mk,$(MODULES)))

# `make LZO=0`: build without liblzo2 (GPL-2.0-or-later), for a pure LGPL
# link of libflashfs; LZO images and options are then refused by name
# (compress/lzo_build.c).  Use its own BUILD (make check-nolzo does).
LZO ?= 1
ifeq ($(LZO),0)
$(foreach m,$(MODULES),$(eval $(m)_PKGS := $(filter-out lzo2,$($(m)_PKGS))))
LZO_CFLAGS := -DFF_NO_LZO
endif

# pkg-config is asked when a recipe runs, not when this file is read, so a
# first `make check` on a bare machine sees the packages `deps` installed.
pkg_cflags = $(if $(1),$(shell pkg-config --cflags $(1)))
pkg_libs   = $(if $(1),$(shell pkg-config --libs $(1)))
ALL_PKGS   = $(sort $(foreach m,$(MODULES),$($(m)_PKGS)))
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra -Werror \
             -Iinclude -I. $(call pkg_cflags,$(ALL_PKGS)) $(LZO_CFLAGS) $(SANFLAGS) $(CFLAGS)

# The folders a list of folders uses, directly or not, listed from the top
# layer down: the order a static link needs.
uses_closure = $(sort $(1) $(foreach m,$(1),$(call uses_closure,$($(m)_USES))))
TOPDOWN      := $(shell echo $(MODULES) | tr ' ' '\n' | tac)
link_order   = $(filter $(call uses_closure,$(1)),$(TOPDOWN))
lib_srcs     = $(filter-out %_main.c,$(wildcard $(1)/*.c))
lib_objs     = $(patsubst %.c,$(BUILD)/obj/%.o,$(call lib_srcs,$(1)))
lib_file     = $(if $(call lib_srcs,$(1)),$(BUILD)/lib/libff_$(1).a)
link_libs    = $(foreach m,$(call link_order,$(1)),$(call lib_file,$(m)))
link_flags   = $(call link_libs,$(1)) \
               $(call pkg_libs,$(sort $(foreach m,$(call link_order,$(1)),$($(m)_PKGS)))) \
               $(foreach m,$(call link_order,$(1)),$($(m)_LDLIBS)) -lpthread -lm

LIBS      := $(foreach m,$(MODULES),$(call lib_file,$(m)))
BINS      := $(addprefix $(BUILD)/bin/,$(PROGRAMS))

# libflashfs: the version is set once, in include/flashfs/version.h.
VERSION       := $(shell sed -n 's/^\#define FF_VERSION_STRING "\(.*\)"/\1/p' include/flashfs/version.h)
SOMAJOR       := $(firstword $(subst ., ,$(VERSION)))
# The library is image/ and the services over it that need neither libfuse3
# nor libmtd (extract/, diff/), and every folder they use (today common
# compress tar tree squashfs yaffs2 ubi image extract diff), so a folder they
# come to use joins it.
LIBFF_SERVICES := image extract diff
LIBFF_MODULES := $(filter $(call uses_closure,$(LIBFF_SERVICES)),$(MODULES))
LIBFF_PKGS    := $(sort $(foreach m,$(LIBFF_MODULES),$($(m)_PKGS)))
LIBFF_LIBS_PRIVATE := -lpthread -lm
LIBFF_HEADERS := $(wildcard include/flashfs/*.h)
LIBFF_A       := $(BUILD)/lib/libflashfs.a
LIBFF_SO      := $(BUILD)/lib/libflashfs.so.$(VERSION)
LIBFF_OBJS    := $(foreach m,$(LIBFF_MODULES),$(call lib_objs,$(m)))
LIBFF_PIC     := $(patsubst $(BUILD)/obj/%,$(BUILD)/pic/%,$(LIBFF_OBJS))
# A program links the archives of its folders above the library, then
# libflashfs.a with the library's pkg-config --static flags, then the
# packages and flags of its own folders.
prog_order    = $(call link_order,$(1))
prog_archives = $(foreach m,$(filter-out $(LIBFF_MODULES),$(call prog_order,$(1))),$(call lib_file,$(m))) \
                $(if $(filter $(LIBFF_MODULES),$(call prog_order,$(1))),$(LIBFF_A))
prog_link_flags = $(call prog_archives,$(1)) \
               $(call pkg_libs,$(sort $(foreach m,$(call prog_order,$(1)),$($(m)_PKGS)))) \
               $(foreach m,$(call prog_order,$(1)),$($(m)_LDLIBS)) $(LIBFF_LIBS_PRIVATE)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(TOOL_SRCS))
# Tests sit above every layer and may use any folder.
TEST_LINK  = $(call link_flags,$(MODULES))

.PHONY: all deps check unit integration asan demo install uninstall clean fuzz layers libs \
        bench-mkfs bench-read bench-fuse bench-yaffs2 bench-jffs2 bench-cramfs bench-erofs bench-ubifs bench-rootfs bench-scale nandsim-check check-field \
        fresh-check dist check-dist check-nolzo
.DEFAULT_GOAL := all

all: $(BINS) libs

libs: $(LIBFF_A) $(LIBFF_SO)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

define LIB_RULE
$(BUILD)/lib/libff_$(1).a: $(call lib_objs,$(1))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach m,$(MODULES),$(if $(call lib_srcs,$(m)),$(eval $(call LIB_RULE,$(m)))))

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -DFF_SHARED_VERSIONS -MMD -MP -c $< -o $@

$(LIBFF_A): $(LIBFF_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBFF_SO): $(LIBFF_PIC) libflashfs.map
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -shared -Wl,-soname,libflashfs.so.$(SOMAJOR) \
	  -Wl,--version-script=libflashfs.map -Wl,--no-undefined -o $@ $(LIBFF_PIC) \
	  $(call pkg_libs,$(LIBFF_PKGS)) $(LIBFF_LIBS_PRIVATE)
	ln -sf libflashfs.so.$(VERSION) $(BUILD)/lib/libflashfs.so.$(SOMAJOR)
	ln -sf libflashfs.so.$(SOMAJOR) $(BUILD)/lib/libflashfs.so

prog_uses = $(firstword $(subst /, ,$($(1)_MAIN))) $($(1)_LINK)
define PROG_RULE
$(BUILD)/bin/$(1): $(BUILD)/obj/$(patsubst %.c,%.o,$($(1)_MAIN)) $(call prog_archives,$(call prog_uses,$(1)))
	@mkdir -p $$(dir $$@)
	$(CC) $(ALL_LDFLAGS) -o $$@ $$< $$(call prog_link_flags,$(call prog_uses,$(1)))
endef
$(foreach p,$(PROGRAMS),$(eval $(call PROG_RULE,$(p))))

$(BUILD)/tests/%: tests/unit/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TEST_LINK) -lcmocka

$(BUILD)/tests/tools/%: tests/tools/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TEST_LINK)

-include $(shell find $(BUILD)/obj $(BUILD)/pic -name '*.d' 2>/dev/null)

deps:
	@scripts/install-deps

asan:
	@true

# The layer order, each folder's USES and each program's USES, for
# scripts/check-layers (run by `make check`).
layers:
	@LAYERS="$(LAYERS)" \
	 USES="$(foreach m,$(MODULES),$(m):$(subst $(space),$(comma),$(strip $($(m)_USES))))" \
	 PROGS="$(foreach p,$(PROGRAMS),$(p):$($(p)_MAIN):$(subst $(space),$(comma),$(strip $(call prog_uses,$(p)))))" \
	 scripts/check-layers
space := $(empty) $(empty)

# Unit tests print TAP through cmocka; integration tests are TAP shell
# scripts.  prove runs both and prints the summary CI reads.
# The harness counts skips and, under STRICT=1 or CI=true, fails every one
# not listed in tests/inherent-skips.txt (tests/perl/TAP/Harness/).
TEST_ENV := FF_BIN=$(abspath $(BUILD)/bin) FF_TOOLS=$(abspath $(BUILD)/tests/tools) \
            FF_BUILD=$(abspath $(BUILD)) FF_TOP=$(CURDIR) CMOCKA_MESSAGE_OUTPUT=TAP \
            PERL5LIB=$(CURDIR)/tests/perl STRICT=$(STRICT)
PROVE    := prove --harness=TAP::Harness::FlashfsSkips
check: deps all layers $(UNIT_BINS) $(TOOL_BINS)
	$(TEST_ENV) $(PROVE) --timer --failures --comments $(PROVE_FLAGS) $(UNIT_BINS) $(sort $(wildcard tests/integration/*.t)) $(CHECK_EXTRA)

unit: all $(UNIT_BINS)
	$(TEST_ENV) $(PROVE) --failures --comments $(PROVE_FLAGS) $(UNIT_BINS)

# One integration test or a glob: make integration T=tests/integration/sqfs_*.t
integration: all $(TOOL_BINS)
	$(TEST_ENV) $(PROVE) --failures --comments $(PROVE_FLAGS) $(or $(T),$(sort $(wildcard tests/integration/*.t)))

MAN_SECTIONS = $(sort $(subst .,,$(suffix $(MANPAGES))))
# mount(8) runs /sbin/mount.fuse.flashfs for an fstab line of type
# fuse.flashfs: the helper goes to SBINDIR, every other program to bin.
SBIN_PROGRAMS := mount.fuse.flashfs
BIN_PROGRAMS  := $(filter-out $(SBIN_PROGRAMS),$(PROGRAMS))
# The subcommands flashfs(1) itself describes: their pages are links to it.
MAN_LINKS     := flashfs-info flashfs-ls flashfs-cat flashfs-check flashfs-scan flashfs-formats
SCHEMAS       := $(wildcard docs/schemas/*.json)
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(SBINDIR)
	install -m 755 $(addprefix $(BUILD)/bin/,$(BIN_PROGRAMS)) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(addprefix $(BUILD)/bin/,$(SBIN_PROGRAMS)) $(DESTDIR)$(SBINDIR)/
	$(foreach s,$(MAN_SECTIONS),\
	  install -d $(DESTDIR)$(MANDIR)/man$(s) && \
	  install -m 644 $(filter %.$(s),$(MANPAGES)) $(DESTDIR)$(MANDIR)/man$(s)/ &&) true
	$(foreach p,$(MAN_LINKS),ln -sf flashfs.1 $(DESTDIR)$(MANDIR)/man1/$(p).1 &&) true
	install -d $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(SCHEMADIR)
	install -m 644 completion/flashfs-tools.bash $(DESTDIR)$(BASHCOMPDIR)/flashfs
	$(foreach p,$(filter-out flashfs,$(PROGRAMS)),ln -sf flashfs $(DESTDIR)$(BASHCOMPDIR)/$(p) &&) true
	install -m 644 $(SCHEMAS) $(DESTDIR)$(SCHEMADIR)/
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/flashfs $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 $(LIBFF_A) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(LIBFF_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libflashfs.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libflashfs.so.$(SOMAJOR)
	ln -sf libflashfs.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/libflashfs.so
	install -m 644 $(LIBFF_HEADERS) $(DESTDIR)$(INCLUDEDIR)/flashfs/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    -e 's|@REQUIRES_PRIVATE@|$(LIBFF_PKGS)|' -e 's|@LIBS_PRIVATE@|$(LIBFF_LIBS_PRIVATE)|' \
	    flashfs.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/flashfs.pc
	@$(install_ldconfig)
	@case "$(SBINDIR)" in /sbin|/usr/sbin|/sbin/|/usr/sbin/) ;; \
	 *) echo "note: mount(8) looks for mount.fuse.flashfs only in /sbin (/usr/sbin where /sbin links there):" \
	    "for fstab lines of type fuse.flashfs install with SBINDIR=/usr/sbin, or link it there";; esac

# Into the running system (no DESTDIR) the loader's cache learns the new
# library now; a staged install only says what to do on the target.
ifeq ($(DESTDIR),)
install_ldconfig = if ldconfig 2>/dev/null; then echo "ldconfig: done"; \
	else echo "note: ldconfig failed (not root?): run ldconfig so libflashfs.so.$(SOMAJOR) in $(LIBDIR) is found"; fi
else
install_ldconfig = echo "note: installed under DESTDIR=$(DESTDIR): run ldconfig on the target system so libflashfs.so.$(SOMAJOR) in $(LIBDIR) is found"
endif

# Removes what install put there, and the folders of its own it made
# (include/flashfs, share/flashfs-tools); the shared ones (bin, lib,
# man/manN...) stay.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/bin/,$(BIN_PROGRAMS))
	rm -f $(addprefix $(DESTDIR)$(SBINDIR)/,$(SBIN_PROGRAMS))
	rm -f $(foreach p,$(MANPAGES),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(notdir $(p)))
	rm -f $(foreach p,$(MAN_LINKS),$(DESTDIR)$(MANDIR)/man1/$(p).1)
	rm -f $(addprefix $(DESTDIR)$(BASHCOMPDIR)/,$(PROGRAMS))
	rm -f $(addprefix $(DESTDIR)$(SCHEMADIR)/,$(notdir $(SCHEMAS)))
	-rmdir $(DESTDIR)$(SCHEMADIR) $(DESTDIR)$(DATADIR)/flashfs-tools
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,libflashfs.a libflashfs.so libflashfs.so.$(SOMAJOR) \
	      libflashfs.so.$(VERSION))
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/flashfs/,$(notdir $(LIBFF_HEADERS)))
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/flashfs.pc
	-rmdir $(DESTDIR)$(INCLUDEDIR)/flashfs

clean:
	rm -rf build

# The release tarball: git archive of HEAD (the committed tree, whatever the
# work tree holds), whose entries carry the commit's time, owner 0 and
# git's fixed order, compressed by one xz thread: the same commit gives the
# same bytes.  `make check-dist` unpacks it outside any repository and runs
# `make $(DISTCHECK_GOAL)` (default check) there.
DISTDIR   ?= .
DIST      := $(DISTDIR)/flashfs-tools-$(VERSION).tar.xz
DISTCHECK_DIR  ?= $(abspath $(BUILD))/distcheck
DISTCHECK_GOAL ?= check
dist:
	@git diff --quiet HEAD -- 2>/dev/null || echo "note: uncommitted changes are not in $(DIST) (it packs HEAD)"
	git archive --format=tar --prefix=flashfs-tools-$(VERSION)/ HEAD | xz -T1 -6 -c > $(DIST).tmp
	mv $(DIST).tmp $(DIST)
	@echo "$(DIST): $$(stat -c %s $(DIST)) bytes, commit $$(git rev-parse --short HEAD)"

check-dist: dist
	rm -rf $(DISTCHECK_DIR) && mkdir -p $(DISTCHECK_DIR)
	tar -xJf $(DIST) -C $(DISTCHECK_DIR)
	GIT_CEILING_DIRECTORIES=$(DISTCHECK_DIR) $(MAKE) -C $(DISTCHECK_DIR)/flashfs-tools-$(VERSION) \
	  $(DISTCHECK_GOAL) $(if $(T),T="$(T)")

# The build without liblzo2 (`make LZO=0`) in its own folder, and the test
# that it refuses LZO by name and still reads and writes everything else.
NOLZO_BUILD := build/nolzo
check-nolzo:
	$(MAKE) BUILD=$(NOLZO_BUILD) LZO=0 all
	$(TEST_ENV) FF_BIN=$(abspath $(NOLZO_BUILD)/bin) FF_BUILD=$(abspath $(NOLZO_BUILD)) \
	  FF_TOOLS=$(abspath $(NOLZO_BUILD)/tests/tools) FF_NOLZO=1 \
	  $(PROVE) --failures --comments $(PROVE_FLAGS) tests/integration/nolzo.t

# The README's make demo + make check in a fresh debootstrapped Debian 12
# root, as CI runs them (scripts/fresh-check, issue 15).
# Real images from public test suites (never committed): FIELD=DIR.
FIELD ?= ../shared/corpus/field
check-field: all
	scripts/check-field $(BUILD)/bin $(FIELD)

fresh-check:
	scripts/fresh-check
-include nandsim-tests/module.mk
-include tests/fuzz/fuzz.mk
