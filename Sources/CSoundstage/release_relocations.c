/*
 * Gives the library's relocation table back once the loader is done with it. The loader reads all
 * of .rela.dyn (1.3 MB, 55,000 entries: mostly the Swift standard library's, FoundationEssentials'
 * and SwiftNIO's metadata) before the library's constructors run, and never again; the pages
 * stay resident, and every game that links Soundstage paid for them for its whole run. This
 * constructor drops them from the process (madvise MADV_DONTNEED): they are clean, read-only
 * pages of the file, so nothing is lost, and if anything reads them again the kernel maps them
 * back from the file. The lazy-binding table (.rela.plt) is separate and untouched; pages shared
 * with other sections are kept. Measured in docs/c-api.md, "What the library weighs".
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

struct relocation_table {
    uintptr_t self;   /* an address inside the object that holds this file */
    uintptr_t start;  /* the whole pages inside its .rela.dyn, or 0 */
    uintptr_t end;
};

/* The loader may or may not have added the load base to a DT_* address; a value below the
 * base is still file-relative. */
static uintptr_t absolute(const struct dl_phdr_info *info, ElfW(Addr) value) {
    return value >= info->dlpi_addr ? (uintptr_t)value : (uintptr_t)(info->dlpi_addr + value);
}

/* The read-only, non-executable PT_LOAD segment of `info` that holds [start, end), or NULL. */
static const ElfW(Phdr) *read_only_segment(const struct dl_phdr_info *info, uintptr_t start, uintptr_t end) {
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t low = info->dlpi_addr + ph->p_vaddr, high = low + ph->p_filesz;
        if (ph->p_type == PT_LOAD && low <= start && end <= high)
            return (ph->p_flags & (PF_W | PF_X)) ? NULL : ph;
    }
    return NULL;
}

static int find_table(struct dl_phdr_info *info, size_t size, void *data) {
    struct relocation_table *table = data;
    const ElfW(Phdr) *dynamic = NULL;
    int holds_self = 0;
    (void)size;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t low = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && low <= table->self && table->self < low + ph->p_memsz) holds_self = 1;
        if (ph->p_type == PT_DYNAMIC) dynamic = ph;
    }
    if (!holds_self) return 0;
    if (dynamic == NULL) return 1;
    uintptr_t rela = 0, bytes = 0;
    for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + dynamic->p_vaddr); entry->d_tag != DT_NULL; entry++) {
        if (entry->d_tag == DT_RELA) rela = absolute(info, entry->d_un.d_ptr);
        else if (entry->d_tag == DT_RELASZ) bytes = entry->d_un.d_val;
        else if (entry->d_tag == DT_TEXTREL) return 1;  /* writes into read-only pages: keep everything */
    }
    long page = sysconf(_SC_PAGESIZE);
    if (rela == 0 || page <= 0) return 1;
    uintptr_t mask = (uintptr_t)page - 1;
    uintptr_t start = (rela + mask) & ~mask, end = (rela + bytes) & ~mask;
    if (end > start && read_only_segment(info, rela, rela + bytes) != NULL) {
        table->start = start;
        table->end = end;
    }
    return 1;
}

__attribute__((constructor)) static void soundstage_release_relocations(void) {
    struct relocation_table table = { (uintptr_t)&soundstage_release_relocations, 0, 0 };
    dl_iterate_phdr(find_table, &table);
    if (table.end > table.start) (void)madvise((void *)table.start, table.end - table.start, MADV_DONTNEED);
}
