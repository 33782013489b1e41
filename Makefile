# Intel PT virtualization for KVM: a patch series on Debian's linux-source-7.3
# (patches/, with the KUnit series patches/kunit/ on top), and its backport
# to linux-source-6.12 (patches/6.12/).  See README.md.  Every target runs as
# root on Debian 12 and installs what it needs with apt-get.  KERNEL=6.12
# (make variable or environment) runs a target on the backport instead.

S := scripts

.PHONY: all build check bench mutants vmx-check tree export boot deb clean distclean

all: build

build:
	@$(S)/deps.sh
	@$(S)/get-base.sh
	@$(S)/apply.sh build/check product
	@$(S)/build.sh
	@$(S)/installed.sh

check:
	@$(S)/check.sh $(STEPS)

bench:
	@$(S)/bench.sh

# Mutation testing of the KUnit tests; slow, not part of check.  Options
# (make variables or environment): MUTANTS_FILES, MUTANTS_IDS,
# MUTANTS_LIMIT, MUTANTS_LIST=1, MUTANTS_TIMEOUT, MUTANTS_STUBS=1, JOBS.
mutants:
	@$(S)/mutants.sh

# KVM under Bochs's VMX, base kernel against the series'; slow, not part
# of check.  Needs make's kernel.
vmx-check:
	@$(S)/vmx-check.sh

tree:
	@$(S)/deps.sh
	@$(S)/get-base.sh
	@$(S)/make-tree.sh

export:
	@$(S)/export.sh

boot:
	@$(S)/boot.sh

deb:
	@$(S)/deps.sh
	@$(S)/get-base.sh
	@$(S)/apply.sh build/check product
	@$(S)/deb.sh

clean:
	rm -rf out build/o-full build/o-kunit build/o-config build/check \
		build/6.12/o-full build/6.12/o-kunit build/6.12/o-config build/6.12/check

distclean:
	rm -rf out build
