#!/usr/bin/env python3
"""Regenerates engine/compliance/catalog.json, fourd's compliance framework
catalog, from the public sources it is built from (issue 29 §5).

    scripts/gen-compliance-catalog.py PROWLER_GIT OSCAL_GIT > engine/compliance/catalog.json

Both arguments are git repositories (a checkout or a bare clone); files are
read from their HEAD. PROWLER_GIT is a clone of github.com/prowler-cloud/prowler; its
prowler/compliance/aws/{cis_3.0_aws,cis_4.0_aws,nist_800_53_revision_5_aws,
pci_4.0_aws,soc2_aws}.json give the CIS AWS Foundations Benchmark controls
(id, title, section, profile level, Automated/Manual as CIS marks them) and
the NIST 800-53 / PCI DSS / SOC 2 items Prowler maps AWS checks to.
OSCAL_GIT is a clone of github.com/usnistgov/oscal-content; its
NIST SP 800-53 rev. 5 HIGH and PRIVACY baseline resolved catalogs give the
NIST control ids and titles. Only ids and titles are taken (facts).
"""
import json, re, subprocess, sys

def git_head(d):
    return subprocess.run(['git', '-C', d, 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip()

def load(d, path):
    out = subprocess.run(['git', '-C', d, 'show', 'HEAD:' + path], capture_output=True, check=True)
    return json.loads(out.stdout)

def cis(prowler, fname, fid, version):
    src = load(prowler, 'prowler/compliance/aws/' + fname)
    controls = []
    for r in src['Requirements']:
        a = r['Attributes'][0]
        controls.append({'id': r['Id'], 'title': r['Description'].strip(), 'section': a['Section'],
                         'level': a['Profile'], 'assessment': a['AssessmentStatus'].lower()})
    controls.sort(key=lambda c: [int(p) for p in c['id'].split('.')])
    return {'id': fid, 'title': src['Name'], 'version': version,
            'source': 'prowler-cloud/prowler@%s prowler/compliance/aws/%s' % (git_head(prowler)[:10], fname),
            'controls': controls}

NIST_FAMILIES = {}

def nist_key(cid):
    m = re.match(r'^([A-Z]{2})-(\d+)(?:\((\d+)\))?$', cid)
    return (m.group(1), int(m.group(2)), int(m.group(3) or 0))

def nist_norm(name):
    m = re.match(r'^([A-Z]{2})-(\d+)(\((\d+)\))?', name)
    base = '%s-%d' % (m.group(1), int(m.group(2)))
    # Prowler writes statement items as "(a)(1)"; only a number right after
    # the control number is an enhancement, and the -1 (policy) controls have none.
    if m.group(4) and int(m.group(2)) != 1:
        return base + '(%d)' % int(m.group(4))
    return base

def nist(prowler, oscal):
    ctl = {}
    paths = ['nist.gov/SP800-53/rev5/json/NIST_SP-800-53_rev5_%s-baseline-resolved-profile_catalog-min.json' % b
             for b in ('HIGH', 'PRIVACY')]
    for p in paths:
        cat = load(oscal, p)['catalog']
        for g in cat['groups']:
            fam = g['id'].upper()
            NIST_FAMILIES[fam] = g['title']
            for c in g['controls']:
                base = c['id'].upper()
                ctl[base] = c['title']
                for e in c.get('controls', []):
                    b, n = e['id'].split('.')
                    ctl['%s(%s)' % (b.upper(), n)] = '%s | %s' % (c['title'], e['title'])
    src = load(prowler, 'prowler/compliance/aws/nist_800_53_revision_5_aws.json')
    base_titles = {}
    for r in src['Requirements']:
        a = r['Attributes'][0]
        for s in (r['Name'], a.get('SubSection') or ''):
            m = re.match(r'^(.*) \(([A-Z]{2}-\d+)\)$', s)
            if m:
                base_titles.setdefault(m.group(2), m.group(1))
        fm = re.match(r'^(.*) \(([A-Z]{2})\)$', a.get('Section') or '')
        if fm:
            NIST_FAMILIES.setdefault(fm.group(2), fm.group(1))
    for r in src['Requirements']:
        a = r['Attributes'][0]
        m = re.match(r'^(.*) \(([A-Z]{2}-\d+)\)$', r['Name'])
        cid = m.group(2) if m else nist_norm(r['Name'])
        if cid in ctl:
            continue
        base = cid.split('(')[0]
        bt = ctl.get(base) or base_titles.get(base)
        if '(' not in cid:
            ctl[cid] = bt
            continue
        et = None
        for s in (r['Name'], a.get('SubGroup') or ''):
            mm = re.match(r'^[A-Z]{2}-\d+\(\d+\) +(.+)$', s)
            if mm:
                et = mm.group(1).strip()
                break
        ctl[cid] = '%s | %s' % (bt, et) if et else bt
        if base not in ctl:
            ctl[base] = bt
    controls = [{'id': c, 'title': t, 'section': NIST_FAMILIES[nist_key(c)[0]]} for c, t in ctl.items()]
    controls.sort(key=lambda c: nist_key(c['id']))
    return {'id': 'NIST-800-53-r5', 'title': 'NIST Special Publication 800-53 Revision 5', 'version': '5.1.1',
            'source': ('usnistgov/oscal-content@%s NIST SP 800-53 rev5 HIGH and PRIVACY baseline resolved catalogs; '
                       'prowler-cloud/prowler@%s prowler/compliance/aws/nist_800_53_revision_5_aws.json')
                      % (git_head(oscal)[:10], git_head(prowler)[:10]),
            'controls': controls}

def pci_key(cid):
    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.split(r'\.', cid.replace('A', 'A.'))]

def pci(prowler):
    src = load(prowler, 'prowler/compliance/aws/pci_4.0_aws.json')
    ctl = {}
    for r in src['Requirements']:
        rid, title = r['Attributes'][0]['Section'].split(':', 1)
        ctl.setdefault(rid.strip(), title.strip())
    controls = []
    for c, t in ctl.items():
        top = c.split('.')[0]
        sec = 'Appendix ' + top if top.startswith('A') else 'Requirement ' + top
        controls.append({'id': c, 'title': t, 'section': sec})
    controls.sort(key=lambda c: pci_key(c['id']))
    return {'id': 'PCI-DSS-4.0', 'title': src['Name'], 'version': '4.0',
            'source': 'prowler-cloud/prowler@%s prowler/compliance/aws/pci_4.0_aws.json' % git_head(prowler)[:10],
            'controls': controls}

def soc2(prowler):
    src = load(prowler, 'prowler/compliance/aws/soc2_aws.json')
    controls = []
    for r in src['Requirements']:
        rid, title = r['Name'].split(' ', 1)
        controls.append({'id': rid, 'title': title.strip(), 'section': r['Attributes'][0]['Section']})
    order = {'CC': 0, 'A': 1, 'C': 2, 'PI': 3, 'P': 4}
    def key(c):
        m = re.match(r'^([A-Z]+)(\d+)\.(\d+)$', c['id'])
        return (order[m.group(1)], int(m.group(2)), int(m.group(3)))
    controls.sort(key=key)
    return {'id': 'SOC2', 'title': 'SOC 2 Trust Services Criteria (AICPA, 2017, revised points of focus 2022)', 'version': '2017',
            'source': 'prowler-cloud/prowler@%s prowler/compliance/aws/soc2_aws.json' % git_head(prowler)[:10],
            'controls': controls}

def main():
    prowler, oscal = sys.argv[1], sys.argv[2]
    out = {'frameworks': [
        cis(prowler, 'cis_3.0_aws.json', 'CIS-AWS-3.0.0', '3.0.0'),
        cis(prowler, 'cis_4.0_aws.json', 'CIS-AWS-4.0.1', '4.0.1'),
        nist(prowler, oscal), pci(prowler), soc2(prowler)]}
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write('\n')

main()
